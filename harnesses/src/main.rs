//! The tapefuzz CLI over the built-in harnesses:
//! `cargo run --release -p harnesses -- <list|run|replay|shrink|explain> …`.
//! Progress goes to stderr; the JSON summary is the last line of stdout.

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match cli::main(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tapefuzz: error: {e}");
            2
        }
    };
    std::process::exit(code);
}
