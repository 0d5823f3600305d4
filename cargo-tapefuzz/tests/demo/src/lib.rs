//! A run-length codec: the demo crate of `cargo-tapefuzz`'s end-to-end test, standing for a
//! user's own crate. `DEMO_BUG=1` plants a bug in `decode`: a run of three or more bytes of
//! 128 or more comes back one byte short.

/// Runs of equal bytes as (count, byte) pairs, counts up to 255.
pub fn encode(data: &[u8]) -> Vec<(u8, u8)> {
    let mut out: Vec<(u8, u8)> = Vec::new();
    for &b in data {
        match out.last_mut() {
            Some((n, last)) if *last == b && *n < u8::MAX => *n += 1,
            _ => out.push((1, b)),
        }
    }
    out
}

/// The bytes of `runs`.
pub fn decode(runs: &[(u8, u8)]) -> Vec<u8> {
    let bug = std::env::var_os("DEMO_BUG").is_some();
    let mut out = Vec::new();
    for &(n, b) in runs {
        let n = if bug && n >= 3 && b >= 128 { n - 1 } else { n };
        out.extend(std::iter::repeat_n(b, n as usize));
    }
    out
}

/// The records of `data` in `demo-dep`'s format (its sum), a dependency's code reached
/// through the crate.
pub fn parse_records(data: &[u8]) -> u32 {
    demo_dep::parse(data)
}

/// The records of `data` counted (`demo-dep`'s `count`).
pub fn count_records(data: &[u8]) -> usize {
    demo_dep::count(data)
}

/// Room reserved for the records of `data` (`demo-dep`'s `reserve`).
pub fn reserve_records(data: &[u8]) -> usize {
    demo_dep::reserve(data)
}
