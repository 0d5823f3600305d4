//! A small record format the demo crate depends on, standing for a published crate with a
//! bug: a magic header, a count, then records; with `DEMO_DEP_BUG` set, a record's tag 0xAB
//! at position 3 overflows a `u8` addition (an overflow panic with overflow checks on, as
//! under cargo-fuzz); with `DEMO_DEP_ALLOC` set, a header's count reserves that many
//! 64 KiB blocks up front (up to 4 GiB: a bug only an allocation limit catches, since Linux
//! grants the reservation); with `DEMO_DEP_HANG` set, a record list that starts `LOOP`
//! spins forever.

/// The sum of the records of `data`, or 0 when it is not of this format.
pub fn parse(data: &[u8]) -> u32 {
    if data.len() < 10 || &data[..8] != b"TFZMAGIC" {
        return 0;
    }
    let count = u16::from_be_bytes([data[8], data[9]]) as usize;
    let mut total = 0u32;
    for (i, &b) in data[10..].iter().take(count.min(16)).enumerate() {
        if b == 0xAB && i == 3 && std::env::var_os("DEMO_DEP_BUG").is_some() {
            total += u32::from(std::hint::black_box(b) + 0x60);
        }
        total += u32::from(b);
    }
    total
}

/// Reserves room for the records of `data`: with `DEMO_DEP_ALLOC` set, 64 KiB a record
/// of the header's count (the bug); otherwise what the data can hold. Returns the room.
pub fn reserve(data: &[u8]) -> usize {
    if data.len() < 10 || &data[..8] != b"TFZMAGIC" {
        return 0;
    }
    let count = u16::from_be_bytes([data[8], data[9]]) as usize;
    let room = if std::env::var_os("DEMO_DEP_ALLOC").is_some() {
        count << 16
    } else {
        count.min(data.len())
    };
    let v: Vec<u8> = Vec::with_capacity(room);
    std::hint::black_box(&v).capacity()
}

/// Counts the records of `data` that are not `LOOP`; with `DEMO_DEP_HANG` set, data that
/// starts with `LOOP` never ends (the bug).
pub fn count(data: &[u8]) -> usize {
    let mut n = 0;
    let mut rest = data;
    while !rest.is_empty() {
        if rest.starts_with(b"LOOP") && std::env::var_os("DEMO_DEP_HANG").is_some() {
            std::hint::black_box(&mut n);
            continue;
        }
        n += 1;
        rest = &rest[1..];
    }
    n
}
