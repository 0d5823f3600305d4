// Shared by `replay-buggy` (this crate, the bug crates at their buggy versions) and
// `replay-fixed` (../fixed, the same `entry` sources compiled against the fixed versions).

/// The bugs, and whether each takes text.
pub const BUGS: &[(&str, bool)] = &[
    ("png_palette", false),
    ("exif_png_hang", false),
    ("asn1_utctime", false),
    ("protobuf_groups", false),
    ("protobuf_alloc", false),
    ("mp3_id3", false),
    ("yaml_nesting", true),
    ("blurhash_utf8", true),
    ("rulex_parse", true),
    ("demangle_overflow", true),
    ("cookie_maxage", true),
    ("regex_empty_repeat", true),
];

fn dispatch(name: &str, data: &[u8]) -> Result<(), String> {
    // Text entries get the input only when it is UTF-8, as the fuzz targets do.
    let text = std::str::from_utf8(data).ok();
    match name {
        "png_palette" => png_palette::entry(data),
        "exif_png_hang" => exif_png_hang::entry(data),
        "asn1_utctime" => asn1_utctime::entry(data),
        "protobuf_groups" => protobuf_groups::entry(data),
        "protobuf_alloc" => protobuf_alloc::entry(data),
        "mp3_id3" => mp3_id3::entry(data),
        "yaml_nesting" => text.map_or((), yaml_nesting::entry),
        "blurhash_utf8" => text.map_or((), blurhash_utf8::entry),
        "rulex_parse" => text.map_or((), rulex_parse::entry),
        "demangle_overflow" => text.map_or((), demangle_overflow::entry),
        "cookie_maxage" => text.map_or((), cookie_maxage::entry),
        "regex_empty_repeat" => text.map_or((), regex_empty_repeat::entry),
        _ => return Err(format!("unknown bug `{name}`")),
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: {} BUG FILE   (exit 0: no failure; a panic exits 101)", args[0]);
        for (b, _) in BUGS {
            eprintln!("  {b}");
        }
        std::process::exit(2);
    }
    let data = std::fs::read(&args[2]).unwrap_or_else(|e| {
        eprintln!("cannot read {}: {e}", args[2]);
        std::process::exit(2)
    });
    if let Err(e) = dispatch(&args[1], &data) {
        eprintln!("{e}");
        std::process::exit(2);
    }
    println!("{}: no failure on {}", args[1], args[2]);
}
