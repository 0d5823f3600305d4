//! Provenance: paths, `Debug` trees, influence by replay, the spans of a part, and the text,
//! DOT and SVG of an explanation graph, pinned for fixed tapes.

use tapefuzz::prelude::*;
use tapefuzz::property::{Test, property};
use tapefuzz::provenance::{
    Change, DebugTree, PartPath, PathStep, ProvenanceError, Shape, explain_path,
};
use tapefuzz::stateful::stateful;
use tapefuzz::tape::{Kind, RandomSource, Rng, Status, Tape, encoding};

// ---------------------------------------------------------------------------------------------
// Paths.

#[test]
fn paths_parse_and_print_back() {
    use PathStep::*;
    for (text, steps) in [
        ("", vec![]),
        (".0", vec![Position(0)]),
        ("[3]", vec![Index(3)]),
        (".field", vec![Field("field".into())]),
        (".1[0].x", vec![Position(1), Index(0), Field("x".into())]),
        ("[1].0", vec![Index(1), Position(0)]),
        (
            "[0][12]._a1",
            vec![Index(0), Index(12), Field("_a1".into())],
        ),
    ] {
        let p = PartPath::parse(text).unwrap();
        assert_eq!(p.steps, steps, "{text}");
        assert_eq!(p.to_string(), text);
    }
    assert_eq!(
        PartPath::parse(".r#type").unwrap().steps,
        [Field("type".into())]
    );
    assert_eq!(PartPath::parse(".01").unwrap().steps, [Position(1)]);
}

#[test]
fn bad_paths_say_where_and_what() {
    for (text, position, needle) in [
        ("x", 0, "expected `.` or `[`"),
        (".", 1, "ends after `.`"),
        (".1[", 3, "ends after `[`"),
        (".1[x]", 3, "expected an element index"),
        ("[2", 2, "expected `]`"),
        ("[2)", 2, "expected `]` after the index, found `)`"),
        (". x", 1, "found ` `"),
        (".-1", 1, "found `-`"),
        ("[99999999999999999999999]", 1, "too large"),
        (".a b", 2, "expected `.` or `[`"),
    ] {
        let e = PartPath::parse(text).unwrap_err();
        assert_eq!(e.position, position, "{text}: {e}");
        assert!(e.message.contains(needle), "{text}: {e}");
        assert!(e.to_string().starts_with(&format!("at byte {position}")));
    }
}

// ---------------------------------------------------------------------------------------------
// Debug trees.

fn at(text: &str, path: &str) -> String {
    let t = DebugTree::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let n = t
        .select(&PartPath::parse(path).unwrap())
        .unwrap_or_else(|e| panic!("{text} {path}: {e}"));
    t.text_of(n).to_string()
}

#[test]
fn debug_trees_read_every_shape() {
    let v = "(4, [Point { x: 3, y: -1 }, Point { x: -0, y: 2 }])";
    assert_eq!(at(v, ""), v);
    assert_eq!(at(v, ".0"), "4");
    assert_eq!(at(v, ".1[1]"), "Point { x: -0, y: 2 }");
    assert_eq!(at(v, ".1[0].y"), "-1");
    // Options, tuple variants, unit names.
    assert_eq!(at("[Some(3), None]", "[0].0"), "3");
    assert_eq!(at("[Some(3), None]", "[1]"), "None");
    assert_eq!(at("[Put(0, 1), Get(0)]", "[0].1"), "1");
    assert_eq!(at("[Put(0, 1), Get(0)]", "[1].0"), "0");
    // Stateful traces: numbered lines, and a concurrent trace's sections.
    assert_eq!(at("1. Put(0, 1)\n2. Get(0)", "[1].0"), "0");
    let par = "prefix:\n1. Put(0, 1)\nthread 1:\n1. Add(0, 1)\n2. Get(0)\nthread 2:";
    assert_eq!(at(par, ".prefix[0]"), "Put(0, 1)");
    assert_eq!(at(par, ".thread1[1].0"), "0");
    assert_eq!(at(par, ".thread1"), "thread 1:\n1. Add(0, 1)\n2. Get(0)");
    assert_eq!(at(par, ".thread2"), "thread 2:");
    assert_eq!(
        at("prefix:\nthread 1:\n1. Add(0, 1)", ".thread1[0]"),
        "Add(0, 1)"
    );
    assert!(DebugTree::parse("prefix:\n2. Get(0)").is_err());
    // Nested generics and paths.
    assert_eq!(
        at(
            "Wrapper(Some(Ok([1, 2])), PhantomData<(u8, u16)>)",
            ".0.0.0[1]"
        ),
        "2"
    );
    assert_eq!(
        at("Wrapper(Some(Ok([1, 2])), PhantomData<(u8, u16)>)", ".1"),
        "PhantomData<(u8, u16)>"
    );
    assert_eq!(
        at("(a::B, std::cmp::Ordering::Less)", ".1"),
        "std::cmp::Ordering::Less"
    );
    // Strings and chars with separators and escapes.
    let s = r#"(["a, b]", "q\"u\\o\"te", ""], ',', '\'', "}{")"#;
    assert_eq!(at(s, ".0[0]"), r#""a, b]""#);
    assert_eq!(at(s, ".0[1]"), r#""q\"u\\o\"te""#);
    assert_eq!(at(s, ".0[2]"), r#""""#);
    assert_eq!(at(s, ".1"), "','");
    assert_eq!(at(s, ".2"), r"'\''");
    assert_eq!(at(s, ".3"), r#""}{""#);
    // Numbers.
    assert_eq!(
        at(
            "(-1, 2.5e-7, -inf, NaN, 1.0, -0.0, 18446744073709551615)",
            ".1"
        ),
        "2.5e-7"
    );
    assert_eq!(
        at(
            "(-1, 2.5e-7, -inf, NaN, 1.0, -0.0, 18446744073709551615)",
            ".2"
        ),
        "-inf"
    );
    // Empty collections, one-tuples, unit.
    assert_eq!(at("([], {}, (), (1,), Empty {})", ".0"), "[]");
    assert_eq!(at("([], {}, (), (1,), Empty {})", ".1"), "{}");
    assert_eq!(at("([], {}, (), (1,), Empty {})", ".3.0"), "1");
    // Maps and sets: an entry's .0 is the key, .1 the value.
    let m = r#"{"k": [1, 2], "l": {3, 4}}"#;
    assert_eq!(at(m, "[0]"), r#""k": [1, 2]"#);
    assert_eq!(at(m, "[0].0"), r#""k""#);
    assert_eq!(at(m, "[0].1[1]"), "2");
    assert_eq!(at(m, "[1].1[0]"), "3");
    assert_eq!(at("{1: None}", "[0].1"), "None");
    // Non-exhaustive structs and pretty printing.
    assert_eq!(at("S { a: 1, .. }", ".a"), "1");
    let pretty = format!("{:#?}", (vec![(1, "x")], Some(vec![-2])));
    assert_eq!(at(&pretty, ".0[0].1"), "\"x\"");
    assert_eq!(at(&pretty, ".1.0[0]"), "-2");
    // A trace one numbered action a line (today's `Steps`), and the empty trace.
    assert_eq!(at("1. Put(0, 1)\n2. Get(0)", "[1].0"), "0");
    assert_eq!(at("1. Put(0, 1)\n2. Get(0)", "[0]"), "Put(0, 1)");
    let empty = DebugTree::parse("(no actions)").unwrap();
    assert!(matches!(&empty.root.shape, Shape::List { items, .. } if items.is_empty()));
}

#[test]
fn debug_trees_report_what_is_there() {
    let t = DebugTree::parse("(4, [Point { x: 3, y: -1 }])").unwrap();
    let e = t.select(&PartPath::parse(".1[0].z").unwrap()).unwrap_err();
    assert_eq!(e.found.to_string(), ".1[0]");
    assert_eq!(
        e.to_string(),
        "no `.z` in `.1[0]` of the value: `Point` with fields .x, .y: `Point { x: 3, y: -1 }`"
    );
    let e = t.select(&PartPath::parse(".1[3]").unwrap()).unwrap_err();
    assert!(e.to_string().contains("a list of 1 element(s)"), "{e}");
    let e = t.select(&PartPath::parse("[0]").unwrap()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("no `[0]` in the value: a tuple of 2"),
        "{e}"
    );
    let e = t.select(&PartPath::parse(".0.0").unwrap()).unwrap_err();
    assert!(
        e.to_string().contains("a plain value (no parts): `4`"),
        "{e}"
    );
    for (bad, position) in [
        ("(1, 2", 5),
        ("[1 2]", 3),
        ("\"open", 0),
        ("(1))", 3),
        ("S { 1 }", 4),
    ] {
        let e = DebugTree::parse(bad).unwrap_err();
        assert_eq!(e.position, position, "{bad}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// A nested value from a fixed tape: the pinned explanation.

#[derive(Generate, Debug, Clone, PartialEq)]
struct Point {
    #[generate(range = -5..=5)]
    x: i8,
    #[generate(range = -5..=5)]
    y: i8,
}

fn nested() -> impl Test {
    property((ints::<u8>(0..=9), vecs(any::<Point>(), 0..=3)), |_| true)
}

/// `(4, [Point { x: -3, y: -1 }, Point { x: 2, y: 0 }])`: a count, then two points (the
/// "one more?" coin, then x and y, for each), then the end of the list.
const TAPE: [u8; 8] = [4, 1, 6, 2, 1, 3, 0, 0];

#[test]
fn a_nested_part_is_explained_with_its_spans_choices_and_bytes() {
    let p = explain_path(&nested(), &TAPE, ".1[0].x").unwrap();
    assert_eq!(
        p.value,
        "(4, [Point { x: -3, y: -1 }, Point { x: 2, y: 0 }])"
    );
    assert_eq!(
        p.render_text(),
        "\
part .1[0].x = -3
value: (4, [Point { x: -3, y: -1 }, Point { x: 2, y: 0 }])
on the tape: .1 field [1..8), [0] element [1..4), .x field [2..3)
own span: field [2..3)
  #2 int 6/10 bytes[2..3) changes it: 6->0: 0
upstream: none (no choice outside the own span changes its value)
exists only with (changing one of these removes the part):
  #1 more 1/1 bytes[1..2) in element [1..4): 1->0: gone
"
    );
    // The span of the element is the point, with its coin and its two fields.
    let el = p.located[1].unwrap();
    assert_eq!(p.spans[el].kind, Kind::Element);
    assert_eq!(p.spans[el].path.to_string(), ".1[0]");
    assert_eq!(p.spans[el].value.as_deref(), Some("Point { x: -3, y: -1 }"));
    // Bytes: one per choice here; the last coin is past the end of the 8 bytes? No: the
    // eighth.
    let bytes: Vec<_> = p.choices.iter().map(|c| c.bytes.clone().unwrap()).collect();
    assert_eq!(bytes, (0..8).map(|i| i..i + 1).collect::<Vec<_>>());

    let dot = p.render_dot();
    for edge in [
        "n0 -> n1 [label=\"made of\"]",
        "n1 -> n2 [label=\"made of\"]",
        "n0 -> n3 [label=\"exists with\"]",
    ] {
        assert!(dot.contains(edge), "{edge} in\n{dot}");
    }
    assert!(
        dot.contains("n2 [label=\"#2 int 6/10 bytes[2..3)\\n6->0: 0\"];"),
        "{dot}"
    );
    assert!(dot.starts_with("digraph provenance {") && dot.ends_with("}\n"));

    let svg = p.render_svg();
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.contains("viewBox=\"0 0 "));
    assert!(svg.trim_end().ends_with("</svg>"));
    for text in [
        "part .1[0].x",
        "= -3",
        "field [2..3)",
        "#2 int 6/10 bytes[2..3)",
        "6-&gt;0: 0",
        "exists only with",
        "#1",
    ] {
        assert!(svg.contains(&format!(">{text}</text>")), "{text} in\n{svg}");
    }
    well_formed(&svg);
}

/// A small XML check: tags nest and close, attributes are quoted, text has no raw `<` or
/// `&` outside entities.
fn well_formed(svg: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "stray `>` in {text:?}");
        for (i, _) in text.match_indices('&') {
            let ent = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| ent.starts_with(e)),
                "bad entity in {text:?}"
            );
        }
        let close = rest[open..].find('>').expect("an unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name),
                "</{name}> closes the wrong tag"
            );
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap().to_string());
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

#[test]
fn the_whole_value_and_a_field_of_the_tuple() {
    let p = explain_path(&nested(), &TAPE, "").unwrap();
    assert_eq!(p.part, p.value);
    assert_eq!(p.own, None);
    assert_eq!(p.own_range(), 0..8);
    assert!(p.upstream().is_empty());
    let p = explain_path(&nested(), &TAPE, ".0").unwrap();
    assert_eq!(p.part, "4");
    let own: Vec<usize> = p.own_choices().map(|c| c.position).collect();
    assert_eq!(own, [0]);
    assert!(p.upstream().is_empty(), "{}", p.render_text());
    // The second point's y: its own field, the two coins before it decide it is there.
    let p = explain_path(&nested(), &TAPE, ".1[1].y").unwrap();
    assert_eq!(p.part, "0");
    assert_eq!(p.spans[p.own.unwrap()].start, 6);
    let exists: Vec<usize> = p.existence().iter().map(|c| c.position).collect();
    assert_eq!(exists, [1, 4]);
}

#[test]
fn paths_that_are_not_in_the_value_are_errors() {
    let e = explain_path(&nested(), &TAPE, ".1[2]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no `[2]` in `.1` of the value: a list of 2 element(s) (steps [0] to [1]): `[Point { x: -3, y: -1 }, Point { x: 2, y: 0 }]`"
    );
    assert!(matches!(
        explain_path(&nested(), &TAPE, ".1[").unwrap_err(),
        ProvenanceError::Path(_)
    ));
    let rejecting = property(ints::<u8>(..).filter(|_| false), |_| true);
    assert_eq!(
        explain_path(&rejecting, &[1], "").unwrap_err(),
        ProvenanceError::NoValue
    );
}

// ---------------------------------------------------------------------------------------------
// Dependent generation: upstream choices.

#[test]
fn a_length_drawn_first_is_upstream_of_an_element() {
    // A length, then a list of exactly that many digits.
    let test = property(
        ints::<usize>(0..=5).flat_map(|n| vecs(ints::<u8>(0..=9), n)),
        |_| true,
    );
    let bytes = [4, 7, 8, 9, 3];
    let p = explain_path(&test, &bytes, "[2]").unwrap();
    assert_eq!(p.value, "[7, 8, 9, 3]");
    assert_eq!(p.part, "9");
    let length = &p.choices[0];
    assert_eq!((length.index, length.bytes.clone()), (4, Some(0..1)));
    // Changing the length to 0 removes the element: upstream, outside the element's span.
    let up: Vec<usize> = p
        .upstream()
        .iter()
        .flat_map(|(_, v)| v.iter().map(|c| c.position))
        .collect();
    assert_eq!(up, [0], "{}", p.render_text());
    assert_eq!(length.influence.as_ref().unwrap().change, Change::Gone);
    assert!(!p.own_range().contains(&0));
    let text = p.render_text();
    assert!(text.contains("exists only with (changing one of these removes the part):\n  #0 int 4/5 bytes[0..1) in flat_map.outer [0..1): 4->0: gone"), "{text}");
    // The element's own choice is its digit.
    let own: Vec<(usize, u64)> = p
        .own_choices()
        .filter(|c| c.influence.is_some())
        .map(|c| (c.position, c.index))
        .collect();
    assert_eq!(own.len(), 1);
    assert_eq!(own[0].1, 9);
}

#[test]
fn a_value_computed_from_an_earlier_part_has_it_upstream() {
    // The second number is the first plus a small step: the first's choice changes it.
    let test = property(
        ints::<u8>(0..=9).flat_map(|a| (just(a), ints::<u8>(0..=3).map(move |d| a + d))),
        |_| true,
    );
    let p = explain_path(&test, &[5, 2], ".1").unwrap();
    assert_eq!(p.value, "(5, 7)");
    let up = p.upstream_values();
    assert_eq!(up.len(), 1, "{}", p.render_text());
    assert_eq!(up[0].1[0].position, 0);
    assert_eq!(
        up[0].1[0].influence.as_ref().unwrap().change,
        Change::To("2".into())
    );
}

// ---------------------------------------------------------------------------------------------
// A failing stateful trace: an action's argument depends on earlier actions.

mod common;
use common::kv::Kv;

#[test]
fn a_failing_stateful_trace_explains_an_action_argument() {
    let test = stateful(Kv, 1..=6);
    // The first failing tape of a seeded random search, as bytes.
    let bytes = (0..10_000)
        .find_map(|i| {
            let mut src = RandomSource::new(Rng::derive(7, i));
            let mut tape = Tape::recording(&mut src);
            let status = test.run(&mut tape);
            (status == Status::Interesting).then(|| encoding::encode(&tape.finish().choices))
        })
        .expect("a failing trace");
    let mut src = tapefuzz::tape::BytesSource::new(&bytes);
    let mut tape = Tape::recording(&mut src);
    let e = test.explain(&mut tape);
    assert_eq!(e.status, Status::Interesting);
    let value = e.value.unwrap();
    let tree = DebugTree::parse(&value).unwrap();
    let Shape::List { items, .. } = &tree.root.shape else {
        panic!("a trace is a list: {value}");
    };
    // The delete's key: its own choice is the index into the model's keys; the puts that
    // made those keys are upstream.
    let k = items
        .iter()
        .position(|n| tree.text_of(n).starts_with("Delete("))
        .expect("a delete in a failing trace");
    let p = explain_path(&test, &bytes, &format!("[{k}].0")).unwrap();
    let el = p.located[0].expect("the action's element span");
    assert_eq!(p.spans[el].kind, Kind::Element);
    let key = p.part.clone();
    let up = p.upstream_values();
    assert!(!up.is_empty(), "{}", p.render_text());
    // Some upstream span is an earlier put of that very key.
    assert!(
        up.iter().any(|(s, _)| {
            s.is_some_and(|s| {
                let v = p.spans[s].value.clone().unwrap_or_default();
                v.starts_with(&format!("Put({key},")) || v == key
            })
        }),
        "{}",
        p.render_text()
    );
    println!("{value}\n{}", p.render_text());
    let svg = p.render_svg();
    assert!(svg.starts_with("<svg") && svg.contains(&format!("part [{k}].0")));
    well_formed(&svg);
}

#[test]
fn a_long_tape_tries_the_part_and_its_neighbours_first() {
    // 12 000 elements: more choices than the work cap allows to try. (Not bytes: a vector
    // of every `u8` is one payload run, without a span per element.)
    let test = property(vecs(ints::<u16>(..), 12_000), |_| true);
    let bytes: Vec<u8> = (0..24_000u32).map(|i| (i % 251) as u8 + 1).collect();
    let p = explain_path(&test, &bytes, "[5000]").unwrap();
    assert_eq!(p.spans[p.own.unwrap()].start, 2 * 5000);
    assert!(p.untried > 0 && p.untried < 12_000, "{}", p.untried);
    let own: Vec<&tapefuzz::provenance::ChoiceNote> =
        p.own_choices().filter(|c| c.influence.is_some()).collect();
    assert_eq!(own.len(), 1);
    assert!(
        p.render_text()
            .contains(&format!("not tried: {} choice(s)", p.untried))
    );
}

#[test]
fn a_part_without_spans_of_its_own_gets_the_smallest_span_that_makes_it() {
    // A list made by `map` from a tuple: no element spans, but field spans.
    let test = property(
        (ints::<u8>(0..=9), ints::<u8>(0..=9)).map(|(a, b)| vec![a, b]),
        |_| true,
    );
    let p = explain_path(&test, &[3, 4], "[1]").unwrap();
    assert_eq!((p.value.as_str(), p.part.as_str()), ("[3, 4]", "4"));
    assert_eq!(p.located, [None]);
    assert!(p.inferred);
    let own = &p.spans[p.own.unwrap()];
    assert_eq!((own.kind, own.start, own.end), (Kind::Field, 1, 2));
    assert!(
        p.render_text().contains("on the tape: [1] (no span of its own)\nown span: field [1..2) (inferred: the smallest span holding the choices that change it)\n"),
        "{}",
        p.render_text()
    );
}

/// A test that cannot render its value without running the property.
struct Opaque<T>(T);

impl<T: Test> Test for Opaque<T> {
    fn run(&self, tape: &mut Tape<'_>) -> Status {
        self.0.run(tape)
    }
    fn explain(&self, tape: &mut Tape<'_>) -> tapefuzz::property::Explained {
        self.0.explain(tape)
    }
}

#[test]
fn a_test_without_render_is_explained_through_its_property() {
    let failing = property(
        (ints::<u8>(0..=9), ints::<u8>(0..=9)),
        |(a, b): (u8, u8)| {
            assert!(a < b, "not increasing");
        },
    );
    let p = explain_path(&Opaque(failing), &[5, 2], ".1").unwrap();
    assert_eq!(p.part, "2");
    let own: Vec<usize> = p
        .own_choices()
        .filter(|c| c.influence.is_some())
        .map(|c| c.position)
        .collect();
    assert_eq!(own, [1]);
}
