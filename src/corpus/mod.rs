//! Corpora on disk: `corpora/<property>/corpus/<sha1>` raw tape files (libFuzzer's format)
//! and `corpora/<property>/regressions/<sha1>.txt` text files, one per shrunk failure. No
//! file is rewritten by every save, writes are atomic and safe from any number of processes,
//! and everything read is untrusted: a bad file is reported and skipped, never a crash, and
//! nothing is ever deleted (but the temporary files of dead writers).

mod atomic;
#[allow(clippy::module_inception)]
mod corpus;
mod flight;
mod regression;

pub use atomic::{
    clean_stale_temps, create_dir_durably, is_temp_name, write_atomic, write_new_atomic,
};
pub(crate) use atomic::{open_regular, random_suffix};
pub use corpus::{
    Corpus, Entry, FORMAT, Folder, MAX_ENTRY_BYTES, MAX_SIBLINGS, read_bounded, read_tape,
    read_tape_versioned, regression_names, sha1_name,
};
pub use flight::{Crashed, CrashedInput, FLIGHT_SLOTS, Flight, FlightView};
pub use regression::{REGRESSION_HEADER, Regression};
pub(crate) use regression::{from_hex, to_hex};
