//! The flags this CLI takes. The parser is the library's, shared with `cargo tapefuzz`
//! ([`tapefuzz::serve::Args`]).

pub use tapefuzz::serve::Args;
use tapefuzz::serve::Flag;

/// Every flag of the harnesses' CLI, in the order the error on an unknown one lists them.
pub const FLAGS: &[Flag] = &[
    Flag::All,
    Flag::Strategy,
    Flag::Mode,
    Flag::Tests,
    Flag::Seconds,
    Flag::Seed,
    Flag::Bug,
    Flag::Corpora,
    Flag::Jobs,
    Flag::UtilityTrace,
    Flag::Keep,
    Flag::SecondsPerTarget,
    Flag::Junit,
    Flag::Stats,
    Flag::Path,
    Flag::Dot,
    Flag::Svg,
];
