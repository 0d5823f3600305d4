use tapefuzz::prelude::*;

// Raw bytes: the generic fuzzing harness.
tapefuzz::property! {
    fn raw(data in bytes(0..=4096)) {
        png_palette::entry(&data);
    }
}

/// A PNG file whose framing is always valid: the signature, an `IHDR` with drawn fields,
/// 0–5 drawn chunks (`PLTE`, `tRNS`, `IDAT` holding a zlib stream of drawn scanline bytes,
/// or any other 4-letter type with drawn data), then `IEND`; every chunk with its CRC-32.
/// It knows the PNG container and zlib framing, nothing about the bug.
fn png_files() -> impl Gen<Value = Vec<u8>> {
    let ihdr = (
        ints::<u32>(1..=16),
        ints::<u32>(1..=16),
        sampled_from(vec![1u8, 2, 4, 8, 16]),
        sampled_from(vec![0u8, 2, 3, 4, 6]),
        ints::<u8>(0..=1),
    )
        .map(|(w, h, depth, color, interlace)| {
            (*b"IHDR", png_palette::ihdr(w, h, depth, color, interlace))
        });
    let chunk = one_of![
        bytes(0..=48).map(|d| (*b"PLTE", d)),
        bytes(0..=16).map(|d| (*b"tRNS", d)),
        bytes(0..=512).map(|raw| (*b"IDAT", png_palette::zlib_stored(&raw))),
        (vecs(ints::<u8>(b'A'..=b'z'), 4..=4), bytes(0..=32))
            .map(|(t, d)| ([t[0], t[1], t[2], t[3]], d)),
    ];
    (ihdr, vecs(chunk, 0..=5)).map(|(ihdr, chunks)| {
        let mut all = vec![ihdr];
        all.extend(chunks);
        all.push((*b"IEND", Vec::new()));
        png_palette::png_file(&all)
    })
}

tapefuzz::property! {
    fn structured(data in png_files()) {
        png_palette::entry(&data);
    }
}
