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
/// A payload run's span ([`super::Tape::draw_payload`]).
pub const PAYLOAD: Label = Label::builtin(Kind::Payload, "payload");
/// A text run's span ([`super::Tape::draw_text`]): a payload run of UTF-8 bytes, which the
/// shrinker edits character by character too.
pub const TEXT: Label = Label::builtin(Kind::Payload, "text");
/// A payload run's length choice.
pub const PAYLOAD_LEN: Label = Label::builtin(Kind::Length, "payload.length");
/// One byte of a payload run.
pub const PAYLOAD_BYTE: Label = Label::builtin(Kind::Value, "payload.byte");
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

/// A Markov chain's transition: an index into the current state's successors.
pub const MARKOV_STEP: Label = Label::builtin(Kind::Union, "markov.step");
/// The span of the value a Markov chain's state generated (told apart by the state's index).
pub const MARKOV_STATE: Label = Label::builtin(Kind::Variant, "markov.state");
/// A grammar's choice of one of a nonterminal's alternatives.
pub const GRAMMAR_ALTERNATIVE: Label = Label::builtin(Kind::Union, "grammar.alternative");
/// The span of one nonterminal's expansion in a grammar.
pub const GRAMMAR_NONTERMINAL: Label = Label::builtin(Kind::Node, "grammar.nonterminal");
/// The span of one terminal (token) a grammar generated.
pub const GRAMMAR_TERMINAL: Label = Label::builtin(Kind::Combinator, "grammar.terminal");
/// Knit's "spawn a new entity?" coin.
pub const KNIT_SPAWN: Label = Label::builtin(Kind::Optional, "knit.spawn");
/// The span of the sequence a newly spawned knit entity drew.
pub const KNIT_ENTITY: Label = Label::builtin(Kind::Combinator, "knit.entity");
/// Knit's choice of the live entity that emits next.
pub const KNIT_PICK: Label = Label::builtin(Kind::Union, "knit.pick");
/// The span of a tick's starting value.
pub const TICK_START: Label = Label::builtin(Kind::Combinator, "tick.start");
/// The span of a tick's increment.
pub const TICK_INCREMENT: Label = Label::builtin(Kind::Combinator, "tick.increment");
/// Where a playback starts in its list.
pub const PLAYBACK_START: Label = Label::builtin(Kind::Value, "playback.start");
/// The span of the value a freeze repeats.
pub const FREEZE_VALUE: Label = Label::builtin(Kind::Combinator, "freeze.value");
/// The span of the values a scramble permutes.
pub const SCRAMBLE_VALUES: Label = Label::builtin(Kind::Combinator, "scramble.values");
/// One digit of a scramble's Lehmer code (0: the next value stays in place).
pub const SCRAMBLE_DIGIT: Label = Label::builtin(Kind::Value, "scramble.digit");
/// The span of the bounded part of an unbound picker.
pub const UNBOUND_BOUNDED: Label = Label::builtin(Kind::Combinator, "unbound.bounded");
/// An unbound picker's choice of one of the bounded part's values.
pub const UNBOUND_PICK: Label = Label::builtin(Kind::Union, "unbound.pick");
/// An enumeration's index into the product of its lists.
pub const ENUMERATE_INDEX: Label = Label::builtin(Kind::Value, "enumerate.index");
/// A mutated generator's "mutate?" coin (0: the base value, unmutated).
pub const MUTATE: Label = Label::builtin(Kind::Optional, "mutated.mutate");
/// The span of a mutated generator's base value.
pub const MUTATE_BASE: Label = Label::builtin(Kind::Combinator, "mutated.base");
/// The span of a mutated generator's mutation.
pub const MUTATION: Label = Label::builtin(Kind::Combinator, "mutated.mutation");
/// A mutator choice's pick of a mutator.
pub const MUTATOR_CHOICE: Label = Label::builtin(Kind::Union, "mutator.choice");
/// The span of the mutator a mutator choice picked (told apart by [`Label::indexed`]).
pub const MUTATOR_VARIANT: Label = Label::builtin(Kind::Variant, "mutator.variant");
/// A list mutator's position in the list.
pub const MUTATOR_POSITION: Label = Label::builtin(Kind::Value, "mutator.position");
/// The span of a value a mutator drew from another generator (an offset, a replacement, an
/// inserted element).
pub const MUTATOR_OPERAND: Label = Label::builtin(Kind::Combinator, "mutator.operand");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_labels_never_equal_built_in_ones() {
        // Every built-in label of this file.
        for b in [
            ELEMENT,
            MORE,
            FIELD,
            ONE_OF,
            WEIGHTED,
            SAMPLED_FROM,
            VARIANT,
            SOME,
            OPTION_VALUE,
            FILTER_ATTEMPT,
            FLAT_MAP_OUTER,
            FLAT_MAP_INNER,
            NODE,
            TREE,
            BRANCH,
            INT,
            INT_HIGH,
            FLOAT,
            BOOL,
            CHAR,
            BYTE,
            SKELETON,
            DECISIONS,
            SOLUTION,
            SOLVED,
            NUM,
            DERIVE_BUDGET,
            NEIGHBOURED,
            NEIGHBOUR_BASE,
            NEIGHBOUR_ANOTHER,
            NEIGHBOUR_STEP,
            NEIGHBOUR_TEMPERATURE,
            NEIGHBOUR_CONSTRUCTED,
            MARKOV_STEP,
            MARKOV_STATE,
            GRAMMAR_ALTERNATIVE,
            GRAMMAR_NONTERMINAL,
            GRAMMAR_TERMINAL,
            KNIT_SPAWN,
            KNIT_ENTITY,
            KNIT_PICK,
            TICK_START,
            TICK_INCREMENT,
            PLAYBACK_START,
            FREEZE_VALUE,
            SCRAMBLE_VALUES,
            SCRAMBLE_DIGIT,
            UNBOUND_BOUNDED,
            UNBOUND_PICK,
            ENUMERATE_INDEX,
            MUTATE,
            MUTATE_BASE,
            MUTATION,
            MUTATOR_CHOICE,
            MUTATOR_VARIANT,
            MUTATOR_POSITION,
            MUTATOR_OPERAND,
        ] {
            let user = Label::new(b.name());
            assert_ne!(user, b, "{}", b.name());
            assert_eq!(user.kind(), Kind::User);
            assert!(!b.kind().is_user());
        }
    }
}
