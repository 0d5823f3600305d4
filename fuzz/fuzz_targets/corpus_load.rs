//! Fuzzes the regression-file reader: any bytes give a regression or an error, never a panic,
//! and a regression that parses writes back to text that parses to the same regression.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tapefuzz::corpus::{REGRESSION_HEADER, Regression};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for candidate in [text.to_string(), format!("{REGRESSION_HEADER}\n{text}")] {
        if let Ok(r) = Regression::parse(&candidate) {
            assert_eq!(Regression::parse(&r.to_text()), Ok(r));
        }
    }
});
