// The bug crates' own `entry` sources, compiled against the fixed versions above.
#[allow(dead_code)]
#[path = "../../bugs/png_palette/src/lib.rs"]
mod png_palette;
#[path = "../../bugs/exif_png_hang/src/lib.rs"]
mod exif_png_hang;
#[path = "../../bugs/asn1_utctime/src/lib.rs"]
mod asn1_utctime;
#[path = "../../bugs/protobuf_groups/src/lib.rs"]
mod protobuf_groups;
#[path = "../../bugs/protobuf_alloc/src/lib.rs"]
mod protobuf_alloc;
#[path = "../../bugs/mp3_id3/src/lib.rs"]
mod mp3_id3;
#[path = "../../bugs/yaml_nesting/src/lib.rs"]
mod yaml_nesting;
#[path = "../../bugs/blurhash_utf8/src/lib.rs"]
mod blurhash_utf8;
#[path = "../../bugs/rulex_parse/src/lib.rs"]
mod rulex_parse;
#[path = "../../bugs/demangle_overflow/src/lib.rs"]
mod demangle_overflow;
#[path = "../../bugs/cookie_maxage/src/lib.rs"]
mod cookie_maxage;
#[path = "../../bugs/regex_empty_repeat/src/lib.rs"]
mod regex_empty_repeat;

include!("../../replay/src/dispatch.rs");
