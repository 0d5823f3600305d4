//! How much work a shrink may do.

use std::time::Duration;

/// Limits on a shrink: test calls and wall-clock time, whichever ends first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Most test calls.
    pub calls: u64,
    /// Most time.
    pub time: Duration,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            calls: 20_000,
            time: Duration::from_secs(60),
        }
    }
}
