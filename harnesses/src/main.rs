//! The tapefuzz CLI over the built-in harnesses:
//! `cargo run --release -p harnesses -- <list|run|replay|shrink|import|explain|ci> …`.
//! Progress goes to stderr; the JSON summary is the last line of stdout.

mod cli;

fn main() {
    let args: Result<Vec<String>, String> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("argument {a:?} is not valid UTF-8"))
        })
        .collect();
    let code = match args.and_then(|a| cli::main(&a)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tapefuzz: error: {e}");
            2
        }
    };
    std::process::exit(code);
}
