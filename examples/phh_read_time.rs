//! How long the PHH reader takes on a hand history with one long multi-line list, by the
//! number of lines of the list (issue 14: the hand-written reader it replaced took
//! quadratic time, 80,000 lines in 7.7 s). Best of three runs per size.
//!
//! `cargo run --profile ci --example phh_read_time`
//!
//! Lists of up to 300,000 lines (`0,` each) go through `read_phh`; a text over 1 MiB is
//! refused by the reader before parsing, so lists of up to three million lines (9 MB) go
//! through the same parser (`toml::from_str`) alone, and a million lines also through
//! `read_phh` as blank lines inside a list (1 MB).

use std::time::{Duration, Instant};

use cardvec::games::holdem::read_phh;

const HAND: &str = "variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 AsAd', 'd dh p2 KcKd', 'd dh p3 QhQs', 'p3 f', 'p1 cc', 'p2 cc',
           'd db 2c7d9h', 'p1 cc', 'p2 cc', 'd db Js', 'p1 cc', 'p2 cc', 'd db 3c',
           'p1 cc', 'p2 cc', 'p1 sm AsAd', 'p2 sm KcKd']
finishing_stacks = [202, 198, 200]
";

fn list(lines: usize, line: &str) -> String {
    let mut text = String::from("padding = [\n");
    for _ in 0..lines {
        text.push_str(line);
    }
    text.push_str("]\n");
    text
}

fn best_of_three(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap()
}

fn report(what: &str, lines: usize, bytes: usize, t: Duration) {
    println!(
        "{what:<34} {lines:>9} lines {:>9} bytes {:>9.2} ms {:>6.1} ns/line",
        bytes,
        t.as_secs_f64() * 1e3,
        t.as_secs_f64() * 1e9 / lines as f64
    );
}

fn main() {
    read_phh(HAND).expect("the sample hand reads");
    for lines in [10_000, 40_000, 80_000, 300_000] {
        let text = format!("{HAND}{}", list(lines, "0,\n"));
        let t = best_of_three(|| {
            read_phh(&text).expect("a long unknown field is read");
        });
        report("read_phh, a list of `0,` lines", lines, text.len(), t);
    }
    let lines = 1_000_000;
    let text = format!("{HAND}padding = [{}0]\n", "\n".repeat(lines));
    let t = best_of_three(|| {
        read_phh(&text).expect("a million blank lines are read");
    });
    report("read_phh, a list of blank lines", lines, text.len(), t);
    for lines in [300_000, 1_000_000, 3_000_000] {
        let text = format!("{HAND}{}", list(lines, "0,\n"));
        let t = best_of_three(|| {
            toml::from_str::<toml::Table>(&text).expect("the parser reads it");
        });
        report("toml::from_str, a list of `0,` lines", lines, text.len(), t);
    }
}
