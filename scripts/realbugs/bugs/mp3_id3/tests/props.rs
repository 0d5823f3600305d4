use tapefuzz::prelude::*;

tapefuzz::property! {
    fn raw(data in bytes(0..=4096)) {
        mp3_id3::entry(&data);
    }
}
