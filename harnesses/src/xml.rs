//! An XML-like build file (in the spirit of the Ant `build.xml` benchmark of RLCheck, paper
//! 002 §5): a plain random document generator, a schema check for validity, and a build
//! planner under test that only valid documents reach.

use std::collections::HashSet;
use tapefuzz::prelude::*;
use tapefuzz::property::Test;
use tapefuzz::tape::Label;
use tapefuzz::{property::property, tape::Reject, tape::Tape};

/// Element names the generator picks from.
pub const NAMES: [&str; 6] = ["project", "property", "target", "echo", "mkdir", "copy"];
/// Attribute names the generator picks from.
pub const ATTRS: [&str; 8] = [
    "name", "value", "default", "depends", "message", "dir", "file", "todir",
];
/// Attribute values the generator picks from.
pub const VALUES: [&str; 4] = ["a", "b", "c", "d"];
/// Deepest nesting of elements below the root.
pub const MAX_DEPTH: usize = 2;

/// An element: a name, attributes in order, children in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Element {
    /// The element's name.
    pub name: &'static str,
    /// Its attributes, `(name, value)`, as written.
    pub attrs: Vec<(&'static str, &'static str)>,
    /// Its children.
    pub children: Vec<Element>,
}

const ELEMENT: Label = Label::new("xml.element");

/// The plain generator, knowing nothing of the schema (as JQF's XML generator): a name, up to
/// 3 attributes, and below [`MAX_DEPTH`] up to 5 children. Simplest: `<project/>`. Running
/// out: the elements drawn so far, closed.
#[derive(Clone, Copy, Debug, Default)]
pub struct DocGen {
    depth: usize,
}

impl Gen for DocGen {
    type Value = Element;
    fn generate(&self, tape: &mut Tape<'_>) -> Result<Element, Reject> {
        tape.span(ELEMENT, |t| {
            let name = sampled_from(NAMES).generate(t)?;
            let attrs = vecs(
                (sampled_from(ATTRS), sampled_from(VALUES)).labelled("xml.attr"),
                0..=3,
            )
            .average(1.0)
            .generate(t)?;
            let children = if self.depth < MAX_DEPTH {
                vecs(
                    DocGen {
                        depth: self.depth + 1,
                    },
                    0..=5,
                )
                .average(1.5)
                .generate(t)?
            } else {
                Vec::new()
            };
            Ok(Element {
                name,
                attrs,
                children,
            })
        })
    }
}

/// The document generator.
pub fn doc_gen() -> DocGen {
    DocGen::default()
}

/// A valid build: properties, then targets with their dependency and tasks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// The target run by default (the `default` attribute, else the last target).
    pub default: String,
    /// Targets in order: name, the target it depends on.
    pub targets: Vec<(String, Option<String>)>,
}

fn attr(e: &Element, name: &str) -> Option<&'static str> {
    e.attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// Checks `e`'s attributes: each at most once, all of `required` present, nothing outside
/// `required` and `optional`.
fn attrs_ok(e: &Element, required: &[&str], optional: &[&str]) -> Result<(), String> {
    let mut seen = HashSet::new();
    for (n, _) in &e.attrs {
        if !seen.insert(*n) {
            return Err(format!("<{}>: attribute {n} twice", e.name));
        }
        if !required.contains(n) && !optional.contains(n) {
            return Err(format!("<{}>: unexpected attribute {n}", e.name));
        }
    }
    for r in required {
        if !seen.contains(r) {
            return Err(format!("<{}>: missing attribute {r}", e.name));
        }
    }
    Ok(())
}

/// The schema: a `project` root with a `name` (and optional `default`, naming a target; the
/// last target when absent);
/// `property` elements (`name`, `value`, no children) before one or more `target`s; a target
/// has a unique `name`, an optional `depends` naming an earlier target, and tasks as children:
/// `echo` (`message`), `mkdir` (`dir`), `copy` (`file`, `todir`), none with children.
pub fn validate(doc: &Element) -> Result<Build, String> {
    if doc.name != "project" {
        return Err(format!("root is <{}>, not <project>", doc.name));
    }
    attrs_ok(doc, &["name"], &["default"])?;
    let mut targets: Vec<(String, Option<String>)> = Vec::new();
    for child in &doc.children {
        match child.name {
            "property" => {
                if !targets.is_empty() {
                    return Err("<property> after a <target>".into());
                }
                attrs_ok(child, &["name", "value"], &[])?;
                if !child.children.is_empty() {
                    return Err("<property> has children".into());
                }
            }
            "target" => {
                attrs_ok(child, &["name"], &["depends"])?;
                let name = attr(child, "name").unwrap_or_default();
                if targets.iter().any(|(n, _)| n == name) {
                    return Err(format!("target {name} twice"));
                }
                let depends = attr(child, "depends");
                if let Some(d) = depends
                    && !targets.iter().any(|(n, _)| n == d)
                {
                    return Err(format!("target {name} depends on unknown {d}"));
                }
                for task in &child.children {
                    match task.name {
                        "echo" => attrs_ok(task, &["message"], &[])?,
                        "mkdir" => attrs_ok(task, &["dir"], &[])?,
                        "copy" => attrs_ok(task, &["file", "todir"], &[])?,
                        other => return Err(format!("<{other}> is not a task")),
                    }
                    if !task.children.is_empty() {
                        return Err(format!("<{}> has children", task.name));
                    }
                }
                targets.push((name.to_string(), depends.map(str::to_string)));
            }
            other => return Err(format!("<{other}> inside <project>")),
        }
    }
    if targets.is_empty() {
        return Err("no <target>".into());
    }
    let default = match attr(doc, "default") {
        Some(d) if targets.iter().any(|(n, _)| n == d) => d.to_string(),
        Some(d) => return Err(format!("default {d} is not a target")),
        None => targets[targets.len() - 1].0.clone(),
    };
    Ok(Build { default, targets })
}

/// Planted bugs in [`plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// The dependencies of the default target are never run (needs a valid document in which
    /// the default target depends on another).
    Chain2,
}

/// The targets to run for the default target, dependencies first, each once.
pub fn plan(build: &Build, bug: Option<Bug>) -> Vec<String> {
    fn visit(b: &Build, name: &str, depth: usize, bug: Option<Bug>, out: &mut Vec<String>) {
        if out.iter().any(|n| n == name) || (bug == Some(Bug::Chain2) && depth >= 1) {
            return;
        }
        if let Some((_, Some(dep))) = b.targets.iter().find(|(n, _)| n == name) {
            visit(b, dep, depth + 1, bug, out);
        }
        out.push(name.to_string());
    }
    let mut out = Vec::new();
    visit(build, &build.default, 0, bug, &mut out);
    out
}

/// The property: a valid document's plan runs each target once, every target after the
/// target it depends on, and the default last.
pub fn check(doc: &Element, bug: Option<Bug>) -> Result<(), Fail> {
    let build = match validate(doc) {
        Ok(b) => b,
        Err(_) => return Err(Fail::Rejected),
    };
    let order = plan(&build, bug);
    ensure_eq!(order.last(), Some(&build.default));
    for (i, name) in order.iter().enumerate() {
        ensure!(!order[..i].contains(name), "{name} runs twice in {order:?}");
        let dep = build
            .targets
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, d)| d.clone());
        if let Some(d) = dep {
            ensure!(
                order[..i].contains(&d),
                "{name} runs before its dependency {d} in {order:?}"
            );
        }
    }
    Ok(())
}

/// The target's test.
pub fn test(bug: Option<&str>) -> Box<dyn Test> {
    let bug = match bug {
        Some("chain2") => Some(Bug::Chain2),
        _ => None,
    };
    Box::new(property(doc_gen(), move |doc: Element| check(&doc, bug)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(
        name: &'static str,
        attrs: &[(&'static str, &'static str)],
        children: Vec<Element>,
    ) -> Element {
        Element {
            name,
            attrs: attrs.to_vec(),
            children,
        }
    }

    fn chain(default: &'static str) -> Element {
        el(
            "project",
            &[("name", "a"), ("default", default)],
            vec![
                el("property", &[("name", "a"), ("value", "b")], vec![]),
                el(
                    "target",
                    &[("name", "a")],
                    vec![el("echo", &[("message", "c")], vec![])],
                ),
                el("target", &[("name", "b"), ("depends", "a")], vec![]),
                el("target", &[("name", "c"), ("depends", "b")], vec![]),
            ],
        )
    }

    #[test]
    fn the_schema_accepts_a_build_and_names_what_is_wrong() {
        assert_eq!(
            validate(&chain("c")).unwrap().targets.len(),
            3,
            "a valid build"
        );
        let mut late = chain("c");
        late.children
            .push(el("property", &[("name", "b"), ("value", "c")], vec![]));
        assert_eq!(validate(&late).unwrap_err(), "<property> after a <target>");
        let mut forward = chain("c");
        forward.children[1].attrs.push(("depends", "c"));
        assert!(validate(&forward).unwrap_err().contains("unknown c"));
        assert!(validate(&el("target", &[], vec![])).is_err());
        assert!(validate(&chain("d")).is_err());
    }

    #[test]
    fn chain2_needs_a_default_target_with_a_dependency() {
        assert!(check(&chain("c"), None).is_ok());
        assert!(check(&chain("a"), Some(Bug::Chain2)).is_ok());
        assert!(check(&chain("b"), Some(Bug::Chain2)).is_err());
        let mut implicit = chain("c");
        implicit.attrs.pop();
        assert_eq!(validate(&implicit).unwrap().default, "c", "the last target");
        assert!(check(&implicit, Some(Bug::Chain2)).is_err());
    }
}
