use tapefuzz::prelude::*;

tapefuzz::property! {
    fn raw(data in bytes(0..=4096)) {
        exif_png_hang::entry(&data);
    }
}
