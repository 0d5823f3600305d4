//! Every label the built-in generators use, in one namespace. Each has a built-in
//! [`Kind`]; strategies match kinds (or these constants), never names.

use super::{Kind, Label, NeighbourPart};

/// A collection element's span.
pub const ELEMENT: Label = Label::builtin(Kind::Element, "element");
/// A collection's "one more element?" coin.
pub const MORE: Label = Label::builtin(Kind::More, "more");
/// A tuple field's span (told apart by [`Label::indexed`]).
pub const FIELD: Label = Label::builtin(Kind::Field, "field");
/// `one_of`'s variant choice.
pub const ONE_OF: Label = Label::builtin(Kind::Union, "one_of");
/// `weighted`'s variant choice.
pub const WEIGHTED: Label = Label::builtin(Kind::Union, "weighted");
/// `sampled_from`'s pick.
pub const SAMPLED_FROM: Label = Label::builtin(Kind::Union, "sampled_from");
/// The span of the variant a union chose (told apart by [`Label::indexed`]).
pub const VARIANT: Label = Label::builtin(Kind::Variant, "variant");
/// An option's "some?" coin.
pub const SOME: Label = Label::builtin(Kind::Optional, "option.some");
/// An option's value span.
pub const OPTION_VALUE: Label = Label::builtin(Kind::Combinator, "option.value");
/// A filter's attempt span.
pub const FILTER_ATTEMPT: Label = Label::builtin(Kind::Combinator, "filter.attempt");
/// `flat_map`'s first stage.
pub const FLAT_MAP_OUTER: Label = Label::builtin(Kind::Combinator, "flat_map.outer");
/// `flat_map`'s second stage.
pub const FLAT_MAP_INNER: Label = Label::builtin(Kind::Combinator, "flat_map.inner");
/// A recursive structure's node span.
pub const NODE: Label = Label::builtin(Kind::Node, "recursive.node");
/// A recursive structure's subtree span.
pub const TREE: Label = Label::builtin(Kind::Node, "recursive.tree");
/// A recursive structure's "recurse?" coin.
pub const BRANCH: Label = Label::builtin(Kind::Branch, "recursive.branch");
/// An integer's choice.
pub const INT: Label = Label::builtin(Kind::Value, "int");
/// The high half of a 128-bit integer.
pub const INT_HIGH: Label = Label::builtin(Kind::Value, "int.high");
/// A float's choice.
pub const FLOAT: Label = Label::builtin(Kind::Value, "float");
/// A boolean's choice.
pub const BOOL: Label = Label::builtin(Kind::Value, "bool");
/// A char's choice.
pub const CHAR: Label = Label::builtin(Kind::Value, "char");
/// One byte of an `arbitrary::Arbitrary` value.
pub const BYTE: Label = Label::builtin(Kind::Value, "arbitrary.byte");
/// A constrained generator's skeleton span.
pub const SKELETON: Label = Label::builtin(Kind::Skeleton, "constrained.skeleton");
/// A constrained generator's branch-order choice.
pub const DECISIONS: Label = Label::builtin(Kind::Decisions, "constrained.decisions");
/// A constrained generator's instantiation span.
pub const SOLUTION: Label = Label::builtin(Kind::Solution, "constrained.solution");
/// One open integer's instantiated value.
pub const SOLVED: Label = Label::builtin(Kind::Value, "constrained.solved");
/// A [`crate::generators::constrained::nums`] integer's choice.
pub const NUM: Label = Label::builtin(Kind::Value, "num");
/// The size budget drawn at the root of a recursive derived value (`generators::derived`).
pub const DERIVE_BUDGET: Label = Label::builtin(Kind::Value, "derive.budget");
/// A generator with a hand-written neighbourhood: its span.
pub const NEIGHBOURED: Label = Label::builtin(Kind::Neighbour(NeighbourPart::Span), "neighboured");
/// ... the wrapped generator's own value.
pub const NEIGHBOUR_BASE: Label =
    Label::builtin(Kind::Neighbour(NeighbourPart::Base), "neighboured.base");
/// ... the "one more step?" coin.
pub const NEIGHBOUR_ANOTHER: Label = Label::builtin(
    Kind::Neighbour(NeighbourPart::Another),
    "neighboured.another",
);
/// ... one hand-written step.
pub const NEIGHBOUR_STEP: Label =
    Label::builtin(Kind::Neighbour(NeighbourPart::Step), "neighboured.step");
/// ... the temperature drawn at the start of a step.
pub const NEIGHBOUR_TEMPERATURE: Label = Label::builtin(
    Kind::Neighbour(NeighbourPart::Temperature),
    "neighboured.temperature",
);
/// ... a call of the constructed neighbourhood from a step.
pub const NEIGHBOUR_CONSTRUCTED: Label = Label::builtin(
    Kind::Neighbour(NeighbourPart::Constructed),
    "neighboured.constructed",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_labels_never_equal_built_in_ones() {
        for b in [
            ELEMENT,
            MORE,
            FIELD,
            ONE_OF,
            VARIANT,
            NODE,
            INT,
            NEIGHBOURED,
        ] {
            let user = Label::new(b.name());
            assert_ne!(user, b, "{}", b.name());
            assert_eq!(user.kind(), Kind::User);
            assert!(!b.kind().is_user());
        }
    }
}
