//! How a test case ended.

/// The outcome of one test case, ordered `Overrun < Invalid < Valid < Interesting`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// The tape ran out of its size budget before the value was complete.
    Overrun,
    /// The value was rejected by a filter or `assume`.
    Invalid,
    /// The property held.
    Valid,
    /// The property failed.
    Interesting,
}

impl Status {
    /// The status in a person's words, as `explain` prints it: `fails`, `passes`,
    /// `rejected (a filter or assume!)`, `incomplete (the tape ran out of choices)`.
    pub fn in_words(self) -> &'static str {
        match self {
            Status::Interesting => "fails",
            Status::Valid => "passes",
            Status::Invalid => "rejected (a filter or assume!)",
            Status::Overrun => "incomplete (the tape ran out of choices)",
        }
    }
}

/// Why a generator stopped without a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// A filter or `assume` rejected the value (the tape records where).
    Invalid,
    /// The tape's size budget ran out.
    Overrun,
}

impl Reject {
    /// The status a test case that stopped this way has.
    pub fn status(self) -> Status {
        match self {
            Reject::Invalid => Status::Invalid,
            Reject::Overrun => Status::Overrun,
        }
    }
}
