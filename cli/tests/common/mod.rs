//! What the command-line tests share: running the `cardvec` binary, and Ctrl-C sent to a
//! run once it is under way (a module of the test binary, tests/cli.rs).

use std::process::{Command, Output};

/// Runs `cardvec ARGS` (the binary of this build) to the end and returns its output.
pub fn cardvec(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardvec"))
        .args(args)
        .output()
        .expect("the cardvec binary runs")
}

/// Runs `cardvec ARGS`, which must succeed (else the test fails with its stderr and the
/// arguments), and returns its last stdout line as JSON: a `--json` run's summary.
pub fn summary(args: &[&str]) -> serde_json::Value {
    let out = cardvec(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    serde_json::from_str(text.lines().last().expect("a last line")).expect("a JSON last line")
}

/// Starts `cardvec ARGS` with stdout and stderr piped, waits for its first line on stdout
/// (the run is under way: its Ctrl-C handler is set), sends it SIGINT with `kill -INT`, as
/// Ctrl-C in a terminal would, reads the rest of stdout and checks the exit status is 130.
/// Returns the first line and the lines after it.
#[cfg(unix)]
pub fn interrupt_after_first_line(args: &[&str]) -> (String, Vec<String>) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardvec"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the cardvec binary starts");
    let mut lines = BufReader::new(child.stdout.take().expect("a piped stdout")).lines();
    let first = lines
        .next()
        .expect("a first line before the end")
        .expect("a readable stdout");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success(), "kill -INT failed");
    let rest: Vec<String> = lines.map(|l| l.expect("a readable stdout")).collect();
    let status = child.wait().expect("the child ends");
    assert_eq!(status.code(), Some(130), "first {first:?}, then {rest:?}");
    (first, rest)
}
