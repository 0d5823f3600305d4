//! Kinds: what a label marks, as data. Strategies read a span's or a choice's kind, never its
//! name, so a user's label can never be taken for a built-in one.

/// What a span or a choice point is. Built-in generators label their spans and choices with
/// built-in kinds ([`super::builtin`]); every label a user makes with [`super::Label::new`]
/// (or `GenExt::labelled`) is [`Kind::User`], whatever its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A label of the user's: it names a part of the value and means nothing to a strategy.
    User,
    /// A value choice: an integer, a float, a bool, a char, a byte.
    Value,
    /// One element of a collection: the span of its "one more?" coin and its choices.
    /// Deleting the span deletes the element.
    Element,
    /// The "one more element?" coin at the start of each [`Kind::Element`].
    More,
    /// The choice of a union's variant (`one_of`, `weighted`, `sampled_from`): another index
    /// is another variant.
    Union,
    /// The span of the variant a [`Kind::Union`] choice picked.
    Variant,
    /// One field of a product (a tuple's component).
    Field,
    /// The "is it there?" coin of an optional value.
    Optional,
    /// One node of a recursive structure.
    Node,
    /// The "recurse here?" coin of a recursive structure.
    Branch,
    /// A combinator's own bookkeeping span (an option's value, a filter attempt, the two
    /// stages of a dependent generator).
    Combinator,
    /// A part of a generator with a hand-written neighbourhood (`GenExt::with_neighbour`).
    Neighbour(NeighbourPart),
    /// A constrained generator's skeleton: its shape choices, with its integers left open
    /// (`generators::constrained`).
    Skeleton,
    /// A constrained generator's order of trying the filter's branches (one choice).
    Decisions,
    /// A constrained generator's instantiation: one choice per open integer, within the
    /// bounds the filter's constraints left it.
    Solution,
    /// A payload run ([`super::Tape::draw_payload`]): a [`Kind::Length`] choice, then one
    /// byte choice per byte. Deleting bytes from it means lowering the length with them.
    Payload,
    /// The length choice at the start of a [`Kind::Payload`] run.
    Length,
}

/// The parts of a generator with a hand-written neighbourhood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NeighbourPart {
    /// The whole generator's span.
    Span,
    /// The wrapped generator's own value.
    Base,
    /// The "one more step?" coin.
    Another,
    /// One hand-written step.
    Step,
    /// The temperature drawn at the start of a step.
    Temperature,
    /// A call of the constructed neighbourhood from a step (`Step::constructed`).
    Constructed,
}

impl Kind {
    /// A number per kind, mixed into a built-in label's hash so that no built-in label and no
    /// user label ever share a hash (a user's `"element"` is not a list element).
    pub(crate) const fn code(self) -> u64 {
        match self {
            Kind::User => 0,
            Kind::Value => 1,
            Kind::Element => 2,
            Kind::More => 3,
            Kind::Union => 4,
            Kind::Variant => 5,
            Kind::Field => 6,
            Kind::Optional => 7,
            Kind::Node => 8,
            Kind::Branch => 9,
            Kind::Combinator => 10,
            Kind::Skeleton => 11,
            Kind::Decisions => 12,
            Kind::Solution => 13,
            Kind::Payload => 14,
            Kind::Length => 15,
            Kind::Neighbour(p) => {
                16 + match p {
                    NeighbourPart::Span => 0,
                    NeighbourPart::Base => 1,
                    NeighbourPart::Another => 2,
                    NeighbourPart::Step => 3,
                    NeighbourPart::Temperature => 4,
                    NeighbourPart::Constructed => 5,
                }
            }
        }
    }

    /// Whether this is a user's label.
    pub const fn is_user(self) -> bool {
        matches!(self, Kind::User)
    }
}
