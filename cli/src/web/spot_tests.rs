//! The spot API of `cardvec serve` in process: bad inputs are 400s that create nothing; a
//! river and a turn spot solved through HTTP to the end, their node queries equal to the
//! library's report of the same spot solved directly (the solve is deterministic); the spot
//! file downloaded, read back and uploaded; cancel, the caps, 409 while solving.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use cardvec::solve::spot::{Algorithm, SolveOptions, Spot, SpotSolver, TreeConfig};

use super::router_with;
use super::spots::{SpotLimits, Spots};
use super::tables::Tables;

fn app(limits: SpotLimits) -> Router {
    router_with(
        Arc::new(Tables::new(10, Duration::from_secs(3600))),
        Arc::new(Spots::new(limits)),
    )
}

async fn send(app: &Router, method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

async fn call(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let (status, bytes) = send(app, method, uri, body.as_bytes().to_vec()).await;
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&bytes).to_string() }));
    (status, v)
}

/// The river spot of the tests (docs/spot.md's small river).
fn river() -> Value {
    json!({
        "board": "Td9d6hQc2s", "pot": 100, "stack": 300,
        "oop_range": "AQ,KJs,88,A5s:0.5", "ip_range": "T9s,JTs,QQ,AK",
        "bets": "60%,a", "raises": "2.5x", "target": 0.5, "iterations": 300,
        "check_every": 5,
    })
}

/// The same spot and options, for the library.
fn library(params: &Value) -> (Spot, SolveOptions) {
    let s = |k: &str| params[k].as_str().unwrap().to_string();
    let tree = TreeConfig::uniform(&s("bets"), &s("raises")).unwrap();
    let spot = Spot::parse(
        &s("board"),
        params["pot"].as_u64().unwrap(),
        params["stack"].as_u64().unwrap(),
        &s("oop_range"),
        &s("ip_range"),
        tree,
    )
    .unwrap();
    let options = SolveOptions {
        algorithm: Algorithm::parse(params["algorithm"].as_str().unwrap_or("dcfr")).unwrap(),
        target_pct: params["target"].as_f64().unwrap(),
        max_iterations: params["iterations"].as_u64().unwrap(),
        check_every: params["check_every"].as_u64().unwrap(),
        ..SolveOptions::default()
    };
    (spot, options)
}

/// The node JSON of the library's solver.
fn node_json(solver: &mut SpotSolver, line: &str, cards: &str) -> Value {
    let cards = crate::spot::parse_card_list(cards).unwrap();
    let r = solver.node_report(line, &cards).unwrap();
    crate::spot::report_json(solver, &r, &[0, 1])
}

/// Polls spot `id` until it is no longer running.
async fn wait(app: &Router, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let (status, v) = call(app, "GET", &format!("/api/spot/{id}"), "").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["status"] != "running" {
            return v;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "not done: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn count(app: &Router) -> usize {
    let (_, v) = call(app, "GET", "/api/spot", "").await;
    v["spots"].as_array().unwrap().len()
}

#[tokio::test]
async fn bad_spot_requests_are_400s_that_create_nothing() {
    let app = app(SpotLimits::default());
    let with = |k: &str, v: Value| {
        let mut p = river();
        p[k] = v;
        p.to_string()
    };
    let without = |k: &str| {
        let mut p = river();
        p.as_object_mut().unwrap().remove(k);
        p.to_string()
    };
    let bad = [
        ("{not json".to_string(), "malformed JSON"),
        (without("board"), "board"),
        (with("frobnicate", json!(1)), "frobnicate"),
        (with("board", json!("Td9d6hQcXx")), "Xx"),
        (with("board", json!("Td9d")), "board"),
        (with("pot", json!(0)), "pot"),
        (with("pot", json!(-5)), "-5"),
        (with("oop_range", json!("ZZ+")), "range"),
        (with("bets", json!("60%,banana")), "banana"),
        (with("algorithm", json!("magic")), "magic"),
        (with("target", json!(-1.0)), "target"),
        (with("iterations", json!(0)), "iterations"),
        (with("check_every", json!(0)), "check"),
        (with("locks", json!(["bet:999=call:1"])), "bet:999"),
        // The form's lock field: each line a `--lock` text; a syntax error, a node of the
        // other player, an action not at the node, a bad frequency, a lock not a string.
        (with("locks", json!(["ip:bet:60%"])), "ip:bet:60%"),
        (with("locks", json!(["oop:bet:60%=call:1"])), "oop"),
        (with("locks", json!(["ip:bet:60%=check:1"])), "check"),
        (with("locks", json!(["ip:bet:60%=call:1.5"])), "1.5"),
        (
            with("locks", json!(["ip:bet:60%=call:1", "check=bet:60%:2"])),
            "2",
        ),
        (with("locks", json!([7])), "expected a string"),
        (with("max_memory", json!("lots")), "lots"),
    ];
    for (body, word) in bad {
        let (status, v) = call(&app, "POST", "/api/spot", &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(word), "{body}: {msg:?} does not name {word:?}");
        assert_eq!(count(&app).await, 0, "{body} created a spot");
    }
    // A spot above the server's memory cap, refused with the figures before allocating.
    let small = self::app(SpotLimits {
        max_memory: 5_000,
        ..SpotLimits::default()
    });
    let (status, v) = call(&small, "POST", "/api/spot", &river().to_string()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let msg = v["error"].as_str().unwrap();
    assert!(
        msg.contains("--spot-max-memory") && msg.contains("5000 bytes"),
        "{msg}"
    );
    assert_eq!(count(&small).await, 0);
    // Files that are not spot files, bad upload options, unknown spots.
    for (uri, body) in [
        ("/api/spot/file", b"hello".to_vec()),
        ("/api/spot/file", Vec::new()),
        ("/api/spot/file?iterations=x", b"CVSPOT".to_vec()),
        ("/api/spot/file?bogus=1", b"CVSPOT".to_vec()),
    ] {
        let (status, bytes) = send(&app, "POST", uri, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
        assert_eq!(count(&app).await, 0);
    }
    for (method, uri) in [
        ("GET", "/api/spot/nope"),
        ("GET", "/api/spot/nope/node"),
        ("GET", "/api/spot/nope/file"),
        ("POST", "/api/spot/nope/cancel"),
        ("DELETE", "/api/spot/nope"),
    ] {
        let (status, v) = call(&app, method, uri, "").await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{method} {uri}: {v}");
        assert!(v["error"].as_str().unwrap().contains("nope"));
    }
}

#[tokio::test]
async fn a_river_spot_solved_through_the_api_reads_as_the_library() {
    let app = app(SpotLimits::default());
    let params = river();
    let (status, v) = call(&app, "POST", "/api/spot", &params.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["board"], "Td9d6hQc2s");
    let done = wait(&app, &id).await;
    assert_eq!(done["status"], "done", "{done}");
    // The same solve in the library: the same iterations, exploitability and nodes.
    let (spot, options) = library(&params);
    let mut solver = SpotSolver::new(&spot, &options).unwrap();
    let sol = solver.solve(&options, &mut |_| true).unwrap();
    let summary = &done["summary"];
    assert_eq!(summary["iterations"], json!(sol.iterations));
    assert_eq!(summary["exploitability_pct"], json!(sol.exploitability_pct));
    assert_eq!(summary["stop"], json!(sol.stop));
    assert_eq!(done["iterations"], json!(sol.iterations));
    let history: Vec<(u64, f64)> = serde_json::from_value(done["history"].clone()).unwrap();
    assert_eq!(history, sol.history);
    for line in ["", "check", "check,bet:60%", "bet:a", "check,check"] {
        let uri = format!("/api/spot/{id}/node?line={}", line.replace('%', "%25"));
        let (status, v) = call(&app, "GET", &uri, "").await;
        assert_eq!(status, StatusCode::OK, "{line}: {v}");
        assert_eq!(v, node_json(&mut solver, line, ""), "{line}");
    }
    // The root: OOP acts; 169 cells at most; a class's strategy sums to 1.
    let (_, root) = call(&app, "GET", &format!("/api/spot/{id}/node"), "").await;
    assert_eq!(root["kind"], "decision");
    assert_eq!(root["player"], 0);
    let classes = root["players"][0]["classes"].as_array().unwrap();
    assert!(!classes.is_empty() && classes.len() <= 169);
    for c in classes {
        let s: f64 = c["strategy"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .sum();
        assert!((s - 1.0).abs() < 1e-4, "{c}");
    }
    // A line that does not exist: 400 naming the actions there.
    let (status, v) = call(&app, "GET", &format!("/api/spot/{id}/node?line=raise"), "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("check"), "{msg}");
    let (status, _) = call(&app, "GET", &format!("/api/spot/{id}/node?cards=Zz"), "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(&app, "GET", &format!("/api/spot/{id}/node?depth=2"), "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Deleted: gone.
    let (status, _) = call(&app, "DELETE", &format!("/api/spot/{id}"), "").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = call(&app, "GET", &format!("/api/spot/{id}"), "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// A lock from the form (`locks`, the syntax of `--lock`): the spot solved through HTTP with
/// IP locked to call OOP's 60% bet equals the library's locked solve, the locked node plays
/// call with every hand, the summary lists the lock.
#[tokio::test]
async fn a_locked_spot_solved_through_the_api_reads_as_the_library() {
    let app = app(SpotLimits::default());
    let mut params = river();
    params["locks"] = json!(["ip:bet:60%=call:1"]);
    let (status, v) = call(&app, "POST", "/api/spot", &params.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let done = wait(&app, &id).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["locks"], json!(["ip:bet:60%=call:1"]), "{done}");
    let (spot, options) = library(&params);
    let mut solver = SpotSolver::new(&spot, &options).unwrap();
    solver
        .set_locks(&[cardvec::solve::spot::NodeLock::parse("ip:bet:60%=call:1").unwrap()])
        .unwrap();
    let sol = solver.solve(&options, &mut |_| true).unwrap();
    assert_eq!(done["summary"]["iterations"], json!(sol.iterations));
    assert_eq!(
        done["summary"]["exploitability_pct"],
        json!(sol.exploitability_pct)
    );
    for line in ["", "bet:60%", "check"] {
        let uri = format!("/api/spot/{id}/node?line={}", line.replace('%', "%25"));
        let (status, v) = call(&app, "GET", &uri, "").await;
        assert_eq!(status, StatusCode::OK, "{line}: {v}");
        assert_eq!(v, node_json(&mut solver, line, ""), "{line}");
    }
    let (_, node) = call(
        &app,
        "GET",
        &format!("/api/spot/{id}/node?line=bet:60%25"),
        "",
    )
    .await;
    assert_eq!(node["player"], 1);
    let words: Vec<&str> = node["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["word"].as_str().unwrap())
        .collect();
    let call_at = words.iter().position(|w| *w == "call").unwrap();
    for c in node["players"][1]["classes"].as_array().unwrap() {
        for (k, f) in c["strategy"].as_array().unwrap().iter().enumerate() {
            let want = if k == call_at { 1.0 } else { 0.0 };
            assert_eq!(f.as_f64().unwrap(), want, "{c}");
        }
    }
    // Unlocked, IP folds some hands there.
    let (status, v) = call(&app, "POST", "/api/spot", &river().to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let free = v["id"].as_str().unwrap().to_string();
    wait(&app, &free).await;
    let (_, node) = call(
        &app,
        "GET",
        &format!("/api/spot/{free}/node?line=bet:60%25"),
        "",
    )
    .await;
    assert!(node["players"][1]["classes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["strategy"][call_at].as_f64().unwrap() < 0.99));
}

#[tokio::test]
async fn a_turn_spot_has_chance_nodes_with_their_cards() {
    let app = app(SpotLimits::default());
    let params = json!({
        "board": "Td9d6hQc", "pot": 100, "stack": 300,
        "oop_range": "AA,KQs,J8s:0.5,76s,AdKd:0.25", "ip_range": "QQ-JJ,AQs,T9s,87s:0.75",
        "bets": "60%,a", "raises": "2.5x", "target": 1.0, "iterations": 40,
        "check_every": 4, "algorithm": "pcfr+",
    });
    let (status, v) = call(&app, "POST", "/api/spot", &params.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(wait(&app, &id).await["status"], "done");
    let (spot, options) = library(&params);
    let mut solver = SpotSolver::new(&spot, &options).unwrap();
    solver.solve(&options, &mut |_| true).unwrap();
    let (_, chance) = call(
        &app,
        "GET",
        &format!("/api/spot/{id}/node?line=check,check"),
        "",
    )
    .await;
    assert_eq!(chance["kind"], "chance", "{chance}");
    let cards = chance["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 48);
    assert_eq!(chance, node_json(&mut solver, "check,check", ""));
    for (line, extra) in [
        ("check,check,Kh", ""),
        ("check,check", "2s"),
        ("check,check,Kh,check", ""),
    ] {
        let uri = format!("/api/spot/{id}/node?line={line}&cards={extra}");
        let (status, v) = call(&app, "GET", &uri, "").await;
        assert_eq!(status, StatusCode::OK, "{line}: {v}");
        assert_eq!(v, node_json(&mut solver, line, extra), "{line} {extra}");
        assert_eq!(v["street"], 2);
    }
    // A board card cannot come.
    let (status, v) = call(
        &app,
        "GET",
        &format!("/api/spot/{id}/node?line=check,check,Td"),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn the_spot_file_downloads_reads_back_and_uploads() {
    let app = app(SpotLimits::default());
    let mut params = river();
    params["target"] = json!(0.0);
    params["iterations"] = json!(60);
    let (_, v) = call(&app, "POST", "/api/spot", &params.to_string()).await;
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(wait(&app, &id).await["status"], "done");
    let (status, file) = send(&app, "GET", &format!("/api/spot/{id}/file"), Vec::new()).await;
    assert_eq!(status, StatusCode::OK);
    let (mut back, options) = SpotSolver::read_from(file.as_slice()).unwrap();
    assert_eq!(back.iterations(), 60);
    assert_eq!(options.max_memory, SpotLimits::default().max_memory);
    let (_, root) = call(&app, "GET", &format!("/api/spot/{id}/node?line=check"), "").await;
    assert_eq!(root, node_json(&mut back, "check", ""));
    // Uploaded as it is: opened, not solved on; the same node.
    let (status, bytes) = send(&app, "POST", "/api/spot/file", file.clone()).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    let up: Value = serde_json::from_slice(&bytes).unwrap();
    let up_id = up["id"].as_str().unwrap().to_string();
    assert_ne!(up_id, id);
    let opened = wait(&app, &up_id).await;
    assert_eq!(opened["summary"]["stop"], "opened", "{opened}");
    assert_eq!(opened["iterations"], 60);
    let (_, again) = call(
        &app,
        "GET",
        &format!("/api/spot/{up_id}/node?line=check"),
        "",
    )
    .await;
    assert_eq!(again, root);
    // Uploaded and solved on for 10 more: as the library continuing the file.
    let (status, bytes) = send(
        &app,
        "POST",
        "/api/spot/file?iterations=10&target=0&check_every=5",
        file.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let more: Value = serde_json::from_slice(&bytes).unwrap();
    let more_id = more["id"].as_str().unwrap().to_string();
    let ran = wait(&app, &more_id).await;
    assert_eq!(ran["iterations"], 70, "{ran}");
    let continued = SolveOptions {
        max_iterations: 10,
        target_pct: 0.0,
        check_every: 5,
        ..options
    };
    back.solve(&continued, &mut |_| true).unwrap();
    let (_, v) = call(
        &app,
        "GET",
        &format!("/api/spot/{more_id}/node?line=check"),
        "",
    )
    .await;
    assert_eq!(v, node_json(&mut back, "check", ""));
    // A file cut short is refused and creates nothing.
    let before = count(&app).await;
    let (status, bytes) = send(
        &app,
        "POST",
        "/api/spot/file",
        file[..file.len() / 2].to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(v["error"].as_str().unwrap().contains("spot file"), "{v}");
    assert_eq!(count(&app).await, before);
    // A file above the server's cap is refused before allocating.
    let small = self::app(SpotLimits {
        max_memory: 5_000,
        ..SpotLimits::default()
    });
    let (status, bytes) = send(&small, "POST", "/api/spot/file", file).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(v["error"].as_str().unwrap().contains("max memory"), "{v}");
    assert_eq!(count(&small).await, 0);
}

#[tokio::test]
async fn a_running_solve_is_busy_capped_and_cancelled() {
    let app = app(SpotLimits {
        max_running: 1,
        max_kept: 2,
        ..SpotLimits::default()
    });
    let mut long = river();
    long["target"] = json!(0.0);
    long["iterations"] = json!(10_000_000);
    let (status, v) = call(&app, "POST", "/api/spot", &long.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["status"], "running");
    // While it runs: no node, no file, no second solve (and nothing created).
    let (status, v) = call(&app, "GET", &format!("/api/spot/{id}/node"), "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let (status, _) = call(&app, "GET", &format!("/api/spot/{id}/file"), "").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, v) = call(&app, "POST", "/api/spot", &river().to_string()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 1"));
    assert_eq!(count(&app).await, 1);
    // Cancelled: the strategy reached is kept and readable.
    let (status, _) = call(&app, "POST", &format!("/api/spot/{id}/cancel"), "").await;
    assert_eq!(status, StatusCode::OK);
    let done = wait(&app, &id).await;
    assert_eq!(done["status"], "done");
    assert_eq!(done["summary"]["stop"], "interrupted", "{done}");
    let (status, _) = call(&app, "GET", &format!("/api/spot/{id}/node?line=check"), "").await;
    assert_eq!(status, StatusCode::OK);
    // The kept cap: the least recently used finished spot makes room.
    let mut ids = vec![id];
    for _ in 0..2 {
        let (status, v) = call(&app, "POST", "/api/spot", &river().to_string()).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        wait(&app, &id).await;
        ids.push(id);
    }
    assert_eq!(count(&app).await, 2);
    let (status, _) = call(&app, "GET", &format!("/api/spot/{}", ids[0]), "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
