//! A binary beside the library, as most application crates have: the instrumented builds
//! of `cargo tapefuzz fuzz` and `greybox` must still link it.

fn main() {
    println!("{:?}", demo::encode(b"aaab"));
}
