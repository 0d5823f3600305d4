use tapefuzz::prelude::*;
use tapefuzz::property::property;
use tapefuzz::provenance::explain_path;

#[test]
fn scratch() {
    let test = property(
        (
            ints::<u8>(0..=9),
            vecs((ints::<i8>(-5..=5), ints::<i8>(-5..=5)), 0..=3),
        ),
        |_| true,
    );
    let p = explain_path(&test, &[4, 1, 6, 2, 0], ".1[0].0").unwrap();
    println!("{}", p.render_text());
    println!("{}", p.render_dot());
    std::fs::write("/tmp/provscratch/a.svg", p.render_svg()).unwrap();
}
