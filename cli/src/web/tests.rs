//! The web table's API, in process (`tower::ServiceExt::oneshot` on the router): every game
//! played to its end through HTTP with the final scores checked against the engine replaying
//! the same seed and actions, and the 4xx answers.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use cardvec::core::{EnvOptions, LaneRng, OptionValue};
use cardvec::registry;

use super::router;
use super::tables::Tables;

fn app_with(cap: usize) -> Router {
    router(Arc::new(Tables::new(cap, Duration::from_secs(3600))))
}

async fn call(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value, String) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let value = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, value, text)
}

/// The engine's totals for `game` with `options`, dealt from `seed`, after `actions`.
fn engine_totals(game: &str, options: &Value, seed: u64, actions: &[u32]) -> Vec<f64> {
    let pairs: Vec<(String, OptionValue)> = options
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), OptionValue::Int(v.as_i64().unwrap())))
                .collect()
        })
        .unwrap_or_default();
    let mut env = registry::make(game, pairs, EnvOptions::new(1)).unwrap();
    env.set_autoreset(false);
    env.reset(seed);
    let mut totals: Vec<f64> = env.rewards().iter().map(|&r| r as f64).collect();
    for &a in actions {
        env.step(&[a]).unwrap();
        assert_eq!(env.illegal()[0], 0, "{game}: action {a} refused on replay");
        for (t, &r) in totals.iter_mut().zip(env.rewards()) {
            *t += r as f64;
        }
    }
    assert!(
        env.terminated()[0] || env.truncated()[0],
        "{game}: replay not over"
    );
    totals
}

/// Plays one game through the API, the human seat choosing among the legal moves with
/// `rng` (hold'em: an exact raise-to when raising is legal, one time in three), and checks
/// the result against the engine.
async fn play_through(app: &Router, game: &str, options: Value, seat: usize, seed: u64) -> usize {
    let body = json!({ "game": game, "options": options, "seat": seat, "seed": seed });
    let (status, mut v, text) = call(app, "POST", "/api/tables", &body.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{game}: {text}");
    let id = v["id"].as_str().unwrap().to_string();
    let mut rng = LaneRng::from_seed(seed ^ 0xabc);
    let mut moves = 0;
    while !v["finished"].as_bool().unwrap() {
        assert_eq!(v["to_act"], json!(seat), "{game}: not the human's turn");
        let legal = v["legal"].as_array().unwrap();
        assert!(!legal.is_empty(), "{game}: no legal move");
        let range = &v["view"]["legal"];
        let body = if range["raise"].as_bool() == Some(true) && rng.below(3) == 0 {
            let (lo, hi) = (
                range["min_raise_to"].as_u64().unwrap(),
                range["max_raise_to"].as_u64().unwrap(),
            );
            json!({ "raise_to": lo + rng.below((hi - lo + 1).min(1 << 20) as u32) as u64 })
        } else {
            let pick = &legal[rng.below(legal.len() as u32) as usize];
            assert!(pick["label"].as_str().is_some_and(|l| !l.is_empty()));
            json!({ "action": pick["action"] })
        };
        let (status, next, text) = call(
            app,
            "POST",
            &format!("/api/tables/{id}/action"),
            &body.to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{game}: {body} -> {text}");
        v = next;
        moves += 1;
        assert!(moves < 100_000, "{game}: no end");
    }
    let actions: Vec<u32> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["action"].as_u64().unwrap() as u32)
        .collect();
    assert_eq!(v["log_len"].as_u64().unwrap() as usize, actions.len());
    let scores: Vec<f64> = v["result"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let engine = engine_totals(game, &options, seed, &actions);
    assert_eq!(
        scores, engine,
        "{game} seed {seed}: scores differ from the engine"
    );
    // The finished table still answers, and refuses any further move.
    let (status, again, _) = call(app, "GET", &format!("/api/tables/{id}"), "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["result"], v["result"]);
    let (status, err, _) = call(
        app,
        "POST",
        &format!("/api/tables/{id}/action"),
        r#"{"action":0}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(err["error"].as_str().unwrap().contains("over"), "{err}");
    moves
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn every_game_plays_to_its_end_over_http_with_the_engines_scores() {
    rt().block_on(async {
        let app = app_with(100);
        // Every registered game at its defaults from seat 0 (a new game needs no line
        // here), then the configurations and seats worth a second look.
        let mut cases: Vec<(&str, Value, usize)> = registry::ids()
            .iter()
            .map(|id| (*id, json!({}), 0))
            .collect();
        cases.extend([
            ("kuhn", json!({}), 1),
            ("leduc", json!({}), 1),
            ("flip7", json!({ "num_players": 3 }), 2),
            ("flip7", json!({ "num_players": 18, "target_score": 60 }), 7),
            ("151", json!({ "num_players": 2 }), 0),
            ("151", json!({ "num_players": 4 }), 3),
            ("holdem", json!({ "num_players": 2 }), 0),
            ("holdem", json!({ "num_players": 10 }), 4),
        ]);
        for (game, options, seat) in cases {
            for seed in 0..3 {
                play_through(&app, game, options.clone(), seat, seed).await;
            }
        }
    });
}

#[test]
fn holdem_takes_exact_raise_amounts_and_refuses_others_with_the_range() {
    rt().block_on(async {
        let app = app_with(10);
        // Seat 0 of a heads-up table whose bot only calls: the human acts first preflop or
        // after a call.
        for seed in 0..20 {
            let body = json!({ "game": "holdem", "seed": seed, "bot": "call-station", "options": { "num_players": 2 } });
            let (status, v, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
            assert_eq!(status, StatusCode::CREATED, "{text}");
            let range = &v["view"]["legal"];
            if v["finished"].as_bool().unwrap() || range["raise"].as_bool() != Some(true) {
                continue;
            }
            let id = v["id"].as_str().unwrap();
            let (lo, hi) = (range["min_raise_to"].as_u64().unwrap(), range["max_raise_to"].as_u64().unwrap());
            let url = format!("/api/tables/{id}/action");
            for bad in [lo - 1, hi + 1] {
                let (status, err, _) = call(&app, "POST", &url, &json!({ "raise_to": bad }).to_string()).await;
                assert_eq!(status, StatusCode::BAD_REQUEST);
                let msg = err["error"].as_str().unwrap();
                assert!(msg.contains(&format!("raise to between {lo} and {hi} chips")), "{msg}");
                assert!(!msg.contains("..="), "{msg}");
            }
            let to = lo + 1;
            let (status, after, text) = call(&app, "POST", &url, &json!({ "raise_to": to }).to_string()).await;
            assert_eq!(status, StatusCode::OK, "{text}");
            let mine = &after["log"].as_array().unwrap().iter().find(|m| m["by"] == "you").unwrap()["label"];
            assert_eq!(mine.as_str().unwrap(), format!("raise to {to}"));
            return;
        }
        panic!("no seed gave a raise");
    });
}

#[test]
fn bad_requests_get_a_4xx_with_a_message_and_change_nothing() {
    rt().block_on(async {
        let app = app_with(2);
        let (status, v, _) = call(
            &app,
            "POST",
            "/api/tables",
            r#"{"game":"lost-cities","seed":5}"#,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        let id = v["id"].as_str().unwrap().to_string();
        let url = format!("/api/tables/{id}/action");
        let cases: Vec<(&str, &str, &str, StatusCode, &str)> = vec![
            (
                "POST",
                "/api/tables/0123456789abcdef/action",
                r#"{"action":0}"#,
                StatusCode::NOT_FOUND,
                "no table",
            ),
            (
                "GET",
                "/api/tables/nope",
                "",
                StatusCode::NOT_FOUND,
                "no table",
            ),
            (
                "DELETE",
                "/api/tables/nope",
                "",
                StatusCode::NOT_FOUND,
                "no table",
            ),
            (
                "POST",
                &url,
                r#"{"action":"#,
                StatusCode::BAD_REQUEST,
                "malformed JSON",
            ),
            (
                "POST",
                &url,
                "nope",
                StatusCode::BAD_REQUEST,
                "malformed JSON",
            ),
            ("POST", &url, r#"[1,2]"#, StatusCode::BAD_REQUEST, ""),
            (
                "POST",
                &url,
                r#"{"action":-1}"#,
                StatusCode::BAD_REQUEST,
                "malformed JSON",
            ),
            (
                "POST",
                &url,
                r#"{"act":1}"#,
                StatusCode::BAD_REQUEST,
                "unknown field",
            ),
            (
                "POST",
                &url,
                r#"{}"#,
                StatusCode::BAD_REQUEST,
                "exactly one",
            ),
            (
                "POST",
                &url,
                r#"{"action":95}"#,
                StatusCode::BAD_REQUEST,
                "not legal",
            ),
            (
                "POST",
                &url,
                r#"{"action":4000000000}"#,
                StatusCode::BAD_REQUEST,
                "not legal",
            ),
            (
                "POST",
                &url,
                r#"{"raise_to":10}"#,
                StatusCode::BAD_REQUEST,
                "no raise-to",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"chess"}"#,
                StatusCode::BAD_REQUEST,
                "chess",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"flip7","options":{"num_players":19}}"#,
                StatusCode::BAD_REQUEST,
                "players must be a whole number between 1 and 18, got 19",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"flip7","options":"num_players=2"}"#,
                StatusCode::BAD_REQUEST,
                "got 2",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"flip7","options":7}"#,
                StatusCode::BAD_REQUEST,
                "expected an object",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"kuhn","bot":"oracle"}"#,
                StatusCode::BAD_REQUEST,
                "oracle",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"kuhn","seat":2}"#,
                StatusCode::BAD_REQUEST,
                "seat",
            ),
            (
                "POST",
                "/api/tables",
                r#"{"game":"151","bots":["random"],"options":{"num_players":4}}"#,
                StatusCode::BAD_REQUEST,
                "got 1",
            ),
            (
                "POST",
                "/api/watch/151",
                r#"{"version":1}"#,
                StatusCode::BAD_REQUEST,
                "151 replay",
            ),
            (
                "POST",
                "/api/watch/phh",
                "variant = 'FT'",
                StatusCode::BAD_REQUEST,
                "",
            ),
            (
                "POST",
                "/api/ladder",
                "not json",
                StatusCode::BAD_REQUEST,
                "",
            ),
            ("GET", "/play/chess", "", StatusCode::NOT_FOUND, "chess"),
            (
                "GET",
                "/static/secret.txt",
                "",
                StatusCode::NOT_FOUND,
                "secret",
            ),
            ("GET", "/nowhere", "", StatusCode::NOT_FOUND, "no such page"),
        ];
        for (method, uri, body, want, needle) in cases {
            let (status, v, text) = call(&app, method, uri, body).await;
            assert_eq!(status, want, "{method} {uri} {body}: {text}");
            let msg = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{uri} {body}: no message: {text}"));
            assert!(msg.contains(needle), "{uri} {body}: {msg}");
        }
        // Nothing changed at the table.
        let (_, now, _) = call(&app, "GET", &format!("/api/tables/{id}"), "").await;
        assert_eq!(now["log_len"], v["log_len"]);
        assert_eq!(now["view"], v["view"]);
        // The cap: a second table fits, a third does not; deleting one makes room.
        let (status, second, _) = call(&app, "POST", "/api/tables", r#"{"game":"kuhn"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
        let (status, full, _) = call(&app, "POST", "/api/tables", r#"{"game":"kuhn"}"#).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{full}");
        let sid = second["id"].as_str().unwrap();
        let (status, _, _) = call(&app, "DELETE", &format!("/api/tables/{sid}"), "").await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let (status, _, _) = call(&app, "POST", "/api/tables", r#"{"game":"kuhn"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
    });
}

#[test]
fn many_tables_play_at_once() {
    rt().block_on(async {
        let app = app_with(1000);
        let mut tasks = Vec::new();
        for k in 0..24u64 {
            let app = app.clone();
            let (game, options) = [
                ("kuhn", json!({})),
                ("leduc", json!({})),
                ("flip7", json!({"num_players": 4, "target_score": 50})),
                ("holdem", json!({"num_players": 6})),
            ][k as usize % 4]
                .clone();
            tasks.push(tokio::spawn(async move {
                play_through(&app, game, options, 1, 100 + k).await
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let (_, stats, _) = call(&app, "GET", "/api/stats", "").await;
        assert_eq!(stats["tables"], json!(24));
    });
}

#[test]
fn pages_list_every_game_and_embed_their_scripts() {
    rt().block_on(async {
        let app = app_with(1);
        let (status, _, index) = call(&app, "GET", "/", "").await;
        assert_eq!(status, StatusCode::OK);
        for id in registry::ids() {
            assert!(
                index.contains(&format!("href=\"/play/{id}\"")),
                "{id} not listed"
            );
            let (status, _, page) = call(&app, "GET", &format!("/play/{id}"), "").await;
            assert_eq!(status, StatusCode::OK);
            assert!(page.contains(&format!("data-game=\"{id}\"")));
        }
        for file in ["style.css", "cards.js", "play.js", "watch.js"] {
            let (status, _, _) = call(&app, "GET", &format!("/static/{file}"), "").await;
            assert_eq!(status, StatusCode::OK, "{file}");
        }
        let (_, games, _) = call(&app, "GET", "/api/games", "").await;
        assert_eq!(games.as_array().unwrap().len(), registry::ids().len());
    });
}

#[test]
fn replays_hands_and_the_ladder_are_served_for_watching() {
    rt().block_on(async {
        let app = app_with(1);
        let (status, _, replay) = call(&app, "GET", "/api/samples/151-replay?seed=4", "").await;
        assert_eq!(status, StatusCode::OK);
        let (status, r, text) = call(&app, "POST", "/api/watch/151", &replay).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        assert!(r["total_steps"].as_u64().unwrap() > 10);
        assert!(r["result"]["final_scores"].is_object());

        let (status, _, phh) = call(&app, "GET", "/api/samples/phh?seed=9&players=5", "").await;
        assert_eq!(status, StatusCode::OK);
        let (status, h, text) = call(&app, "POST", "/api/watch/phh", &phh).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        let frames = h["frames"].as_array().unwrap();
        let last = frames.last().unwrap();
        assert_eq!(last["over"], json!(true));
        let hand = cardvec::games::holdem::read_phh(&phh).unwrap();
        assert_eq!(frames.len(), hand.history().len() + 1);
        for (p, seat) in last["seats"].as_array().unwrap().iter().enumerate() {
            assert_eq!(seat["net"].as_i64().unwrap(), hand.net()[p]);
        }
        let (status, _, _) = call(&app, "GET", "/api/samples/phh?players=11", "").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);

        let (status, l, _) = call(&app, "GET", "/api/ladder", "").await;
        assert_eq!(status, StatusCode::OK);
        let n = l["ids"].as_array().unwrap().len();
        assert!(n >= 2);
        assert_eq!(l["elo"].as_array().unwrap().len(), n);
        assert_eq!(l["win_rate"][0][1]["games"], json!(2000));
        let (status, l2, _) = call(&app, "POST", "/api/ladder", super::watch::LADDER_LOG).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(l2, l);
    });
}

/// A `cardvec ladder --jsonl` log of `game` (its units played here), as the command writes it.
fn game_ladder_log(game: &str, options: &[(&str, i64)], bots: &[&str], games: u64) -> String {
    use cardvec::core::spec::Options;
    use cardvec::ladder::{play_units, LadderSpec};
    let info = registry::info(game).unwrap();
    let pairs = options
        .iter()
        .map(|&(k, v)| (k.to_string(), OptionValue::Int(v)))
        .collect::<Vec<_>>();
    let options = Options::new(info.options, pairs).unwrap();
    let bots: Vec<String> = bots.iter().map(|b| b.to_string()).collect();
    let spec = LadderSpec::new(game, &options, &bots, games, 7, None).unwrap();
    let units = play_units(&spec, 0, spec.units().unwrap()).unwrap();
    let mut text = spec.to_json() + "\n";
    for u in units {
        text += &(u.to_json() + "\n");
    }
    text
}

/// `POST /api/ladder` charts the `cardvec ladder --jsonl` log of any game: its bots, the
/// score of every pair both ways, the ratings with their intervals; a log without a unit,
/// or another ladder's lines, is a 400.
#[test]
fn a_game_ladder_log_is_charted_with_rating_intervals() {
    rt().block_on(async {
        let app = app_with(1);
        for (game, options, bots) in [
            ("kuhn", vec![], vec!["random", "always-bet", "pimc:sims=3"]),
            (
                "flip7",
                vec![("num_players", 3)],
                vec!["random", "threshold-20", "expected-value", "threshold-25"],
            ),
        ] {
            let log = game_ladder_log(game, &options, &bots, 12);
            let (status, l, text) = call(&app, "POST", "/api/ladder", &log).await;
            assert_eq!(status, StatusCode::OK, "{game}: {text}");
            assert_eq!(l["kind"], json!("ladder"));
            assert_eq!(l["game"], json!(game));
            assert_eq!(l["ids"], json!(bots));
            let n = bots.len();
            let (elo, low, high) = (&l["elo"], &l["elo_low"], &l["elo_high"]);
            assert_eq!(
                elo[0].as_f64().unwrap(),
                1000.0,
                "{game}: the first bot anchors"
            );
            for i in 0..n {
                let (r, a, b) = (
                    elo[i].as_f64().unwrap(),
                    low[i].as_f64().unwrap(),
                    high[i].as_f64().unwrap(),
                );
                assert!(a <= r && r <= b, "{game} {i}: {a} {r} {b}");
                assert!(i == 0 || a < b, "{game} {i}: an empty interval");
            }
            let mut met = 0;
            for i in 0..n {
                assert!(l["win_rate"][i][i].is_null());
                for j in 0..n {
                    let (w, v) = (&l["win_rate"][i][j], &l["win_rate"][j][i]);
                    if i != j && !w.is_null() {
                        met += 1;
                        let sum = w["rate"].as_f64().unwrap() + v["rate"].as_f64().unwrap();
                        assert!((sum - 1.0).abs() < 1e-9, "{game} {i} {j}: {w} {v}");
                        assert_eq!(w["games"], v["games"]);
                    }
                }
            }
            assert!(met >= 2, "{game}: {met} pairs met");
            let expected_model = if game == "kuhn" {
                "Bradley-Terry"
            } else {
                "Plackett-Luce"
            };
            assert_eq!(l["model"], json!(expected_model));
            // The header alone, and a unit line of another ladder, are refused.
            let header = log.lines().next().unwrap().to_string() + "\n";
            let (status, _, text) = call(&app, "POST", "/api/ladder", &header).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
            assert!(text.contains("no unit line"), "{text}");
        }
        let kuhn = game_ladder_log("kuhn", &[], &["random", "always-bet"], 4);
        let leduc = game_ladder_log("leduc", &[], &["random", "always-call"], 4);
        let mixed = format!(
            "{}{}",
            kuhn.lines().next().unwrap(),
            &leduc[leduc.find('\n').unwrap()..]
        );
        let (status, _, text) = call(&app, "POST", "/api/ladder", &mixed).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
    });
}

#[test]
fn frames_show_the_table_after_each_bot_move_without_hidden_cards() {
    rt().block_on(async {
        let app = app_with(4);
        let body = r#"{"game":"flip7","seed":3,"seat":2,"options":{"num_players":6}}"#;
        let (_, v, _) = call(&app, "POST", "/api/tables?frames=true", body).await;
        let frames = v["frames"].as_array().unwrap();
        assert_eq!(frames.len(), v["log_len"].as_u64().unwrap() as usize);
        assert!(!frames.is_empty());
        assert_eq!(frames.last().unwrap()["view"], v["view"]);
        let (_, plain, _) = call(&app, "POST", "/api/tables", body).await;
        assert_eq!(plain["frames"], Value::Null);
        // Kuhn, the human at seat 1: the bot moves first; its card stays hidden.
        let (_, k, _) = call(
            &app,
            "POST",
            "/api/tables?frames=true",
            r#"{"game":"kuhn","seat":1,"seed":2}"#,
        )
        .await;
        let frames = k["frames"].as_array().unwrap();
        assert_eq!(frames.len(), 1);
        assert_eq!(frames[0]["view"]["seats"][0]["cards"], json!([null]));
        assert!(frames[0]["view"]["seats"][1]["cards"][0].is_object());
        // After the human's move the frames are that request's moves only.
        let id = k["id"].as_str().unwrap();
        let legal = k["legal"][0]["action"].clone();
        let (_, after, _) = call(
            &app,
            "POST",
            &format!("/api/tables/{id}/action?frames=true&log_from=1"),
            &json!({ "action": legal }).to_string(),
        )
        .await;
        let n = after["log_len"].as_u64().unwrap() as usize;
        let frames = after["frames"].as_array().unwrap();
        assert_eq!(frames.len(), n - 1);
        assert_eq!(frames[0]["n"], json!(1));
        assert_eq!(after["log"].as_array().unwrap().len(), n - 1);
    });
}

#[test]
fn idle_tables_expire_and_busy_ones_stay() {
    let tables = Tables::new(2, Duration::ZERO);
    let req = super::tables::CreateTable {
        game: "kuhn".into(),
        ..Default::default()
    };
    let a = tables
        .insert(super::tables::Table::new(&req).unwrap())
        .ok()
        .unwrap();
    let busy = tables.get(&a).ok().unwrap();
    let guard = busy.lock().unwrap();
    let b = tables
        .insert(super::tables::Table::new(&req).unwrap())
        .ok()
        .unwrap();
    // At the cap, idle tables make room; the one in use right now stays.
    let c = tables
        .insert(super::tables::Table::new(&req).unwrap())
        .ok()
        .unwrap();
    assert!(tables.get(&a).is_ok());
    assert!(tables.get(&b).is_err());
    assert!(tables.get(&c).is_ok());
    drop(guard);
    assert_eq!(tables.sweep(), 2);
    assert_eq!(tables.len(), 0);
}

#[test]
fn every_bot_of_every_game_takes_a_seat_even_one_that_remembers() {
    rt().block_on(async {
        let app = app_with(100);
        for info in registry::GAMES {
            for pattern in info.bots {
                let names: Vec<String> = match *pattern {
                    "threshold-<K>" => vec!["threshold-20".into()],
                    "equity-<N>" => vec!["equity-50".into()],
                    "minmax_d<D>w<W>[t]" => vec!["minmax_d2w2".into(), "minmax_d2w2t".into()],
                    p => {
                        assert!(!p.contains('<'), "{}: pattern {p} not covered", info.id);
                        vec![p.to_string()]
                    }
                };
                for bot in names {
                    let body = json!({ "game": info.id, "bot": bot, "seed": 1, "seat": 1 });
                    let (status, mut v, text) =
                        call(&app, "POST", "/api/tables", &body.to_string()).await;
                    assert_eq!(status, StatusCode::CREATED, "{} {bot}: {text}", info.id);
                    let id = v["id"].as_str().unwrap().to_string();
                    for _ in 0..5 {
                        if v["finished"].as_bool().unwrap() {
                            break;
                        }
                        let a = v["legal"][0]["action"].clone();
                        let (status, next, text) = call(
                            &app,
                            "POST",
                            &format!("/api/tables/{id}/action"),
                            &json!({ "action": a }).to_string(),
                        )
                        .await;
                        assert_eq!(status, StatusCode::OK, "{} {bot}: {text}", info.id);
                        v = next;
                    }
                    call(&app, "DELETE", &format!("/api/tables/{id}"), "").await;
                }
            }
        }
    });
}

/// The ids of cards written as text ("Kh 2c").
fn card_ids(text: &str) -> Vec<u8> {
    cardvec::poker::parse_cards(text)
        .unwrap()
        .iter()
        .map(|c| c.id())
        .collect()
}

#[test]
fn a_split_pot_is_a_tie_with_both_hands_named_though_an_odd_chip_goes_to_one_seat() {
    rt().block_on(async {
        let app = app_with(10);
        // Board Kh 2c 8s Jd 2s: 4s8h (you, the button) and 8dTc (a call station) both make
        // 8-8-2-2-K. The big blind (seat 2) is all-in for 1 chip with 3c4d, so the main pot
        // is 3 chips: chopped 2/1, the odd chip to seat 1, left of the button. The totals
        // differ (0 and +0.5 big blinds); the hand is a split pot all the same.
        let deal = card_ids("4s 8h 8d Tc 3c 4d Kh 2c 8s Jd 2s");
        let body = json!({
            "game": "holdem", "seat": 0, "bot": "call-station", "deal": deal,
            "options": { "num_players": 3, "button": 0, "stacks": [200, 200, 1] },
        });
        let (status, mut v, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
        assert_eq!(status, StatusCode::CREATED, "{text}");
        let id = v["id"].as_str().unwrap().to_string();
        let url = format!("/api/tables/{id}/action");
        let mut moves = 0;
        while !v["finished"].as_bool().unwrap() {
            let labels: Vec<&str> = v["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["label"].as_str().unwrap())
                .collect();
            assert!(
                labels
                    .iter()
                    .any(|l| *l == "check" || l.starts_with("call ")),
                "{labels:?}"
            );
            let (status, next, text) =
                call(&app, "POST", &url, &json!({ "action": 1 }).to_string()).await;
            assert_eq!(status, StatusCode::OK, "{text}");
            v = next;
            moves += 1;
            assert!(moves < 10, "the hand did not end");
        }
        let r = &v["result"];
        assert_eq!(r["winners"], json!([0, 1]), "{r}");
        assert_eq!(r["tie"], json!(true));
        let two_pair = "two pair, eights and twos";
        assert_eq!(r["hands"][0], json!(two_pair));
        assert_eq!(r["hands"][1], json!(two_pair));
        assert_eq!(r["hands"][2], json!("one pair, twos"));
        let summary = r["summary"].as_str().unwrap();
        assert!(
            summary.contains("split pot") && summary.contains(two_pair),
            "{summary}"
        );
        // Chips: the odd chip of the main pot went to seat 1; the scores are the rewards.
        assert_eq!(r["results"], json!([0.0, 1.0, -1.0]));
        assert_eq!(r["scores"], json!([0.0, 0.5, -0.5]));
        assert_eq!(v["reward_unit"], json!("big blinds"));
        let (_, games, _) = call(&app, "GET", "/api/games", "").await;
        let holdem = games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == "holdem")
            .unwrap();
        assert_eq!(
            holdem["reward_unit"], v["reward_unit"],
            "the list and the table say one unit"
        );
        // The same hand as a PHH hand history on the watch page: a split pot there too.
        use cardvec::games::holdem::{write_phh, Action, NlHand, TableConfig};
        let cards = cardvec::poker::parse_cards("4s 8h 8d Tc Kh 2c 8s Jd 2s").unwrap();
        let hole = [[cards[0], cards[1]], [cards[2], cards[3]]];
        let board = [cards[4], cards[5], cards[6], cards[7], cards[8]];
        let config = TableConfig::new(1, 2, 0).unwrap();
        let mut hand = NlHand::new(config, &[200, 200], 0, &hole, board).unwrap();
        while let Some(legal) = hand.legal() {
            hand.apply(if legal.check {
                Action::Check
            } else {
                Action::Call
            })
            .unwrap();
        }
        let (status, h, text) = call(&app, "POST", "/api/watch/phh", &write_phh(&hand, None)).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        let o = &h["outcome"];
        assert_eq!(o["winners"], json!([0, 1]), "{o}");
        assert_eq!(o["tie"], json!(true));
        assert_eq!(o["hands"], json!([two_pair, two_pair]));
        assert!(o["summary"].as_str().unwrap().contains("split pot"), "{o}");
        // A deal the game refuses is a 400 that names it.
        let bad = json!({ "game": "holdem", "deal": [0, 0, 1, 2, 3, 4, 5, 6, 7] });
        let (status, err, _) = call(&app, "POST", "/api/tables", &bad.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(err["error"].as_str().unwrap().contains("card"), "{err}");
    });
}

#[test]
fn every_game_names_its_actions_and_says_how_it_ended() {
    rt().block_on(async {
        let app = app_with(100);
        for id in registry::ids() {
            let body = json!({ "game": id, "seed": 5 });
            let (status, mut v, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
            assert_eq!(status, StatusCode::CREATED, "{text}");
            assert_ne!(v["view"]["kind"], json!("generic"), "{id} draws no view");
            let url = format!("/api/tables/{}/action", v["id"].as_str().unwrap());
            let mut rng = LaneRng::from_seed(9);
            for _ in 0..5000 {
                if v["finished"].as_bool().unwrap() {
                    break;
                }
                let legal = v["legal"].as_array().unwrap().clone();
                for m in &legal {
                    let label = m["label"].as_str().unwrap();
                    assert!(!label.starts_with("action "), "{id}: {label}");
                }
                let pick = &legal[rng.below(legal.len() as u32) as usize];
                v = call(
                    &app,
                    "POST",
                    &url,
                    &json!({ "action": pick["action"] }).to_string(),
                )
                .await
                .1;
            }
            let r = &v["result"];
            assert!(r.is_object(), "{id} did not end");
            let n = v["num_players"].as_u64().unwrap() as usize;
            let winners = r["winners"].as_array().unwrap();
            assert!(
                !winners.is_empty() && winners.iter().all(|w| (w.as_u64().unwrap() as usize) < n),
                "{id}: {r}"
            );
            assert_eq!(r["tie"], json!(winners.len() > 1));
            assert_eq!(r["results"].as_array().unwrap().len(), n, "{id}");
            assert!(!r["summary"].as_str().unwrap().is_empty());
        }
    });
}

#[test]
fn every_error_is_json_even_the_frameworks_own() {
    rt().block_on(async {
        let app = app_with(10);
        let (status, v, _) = call(&app, "POST", "/api/tables", r#"{"game":"kuhn"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
        let id = v["id"].as_str().unwrap().to_string();
        let big = "x".repeat(super::MAX_BODY + 1);
        let cases: Vec<(&str, String, String, StatusCode, &str)> = vec![
            // Query strings that do not parse.
            (
                "GET",
                format!("/api/tables/{id}?log_from=abc"),
                String::new(),
                StatusCode::BAD_REQUEST,
                "bad query string",
            ),
            (
                "GET",
                format!("/api/tables/{id}?frames=maybe"),
                String::new(),
                StatusCode::BAD_REQUEST,
                "bad query string",
            ),
            (
                "GET",
                "/api/samples/phh?players=-3".into(),
                String::new(),
                StatusCode::BAD_REQUEST,
                "bad query string",
            ),
            (
                "GET",
                "/api/samples/151-replay?seed=1e9".into(),
                String::new(),
                StatusCode::BAD_REQUEST,
                "bad query string",
            ),
            (
                "POST",
                "/api/tables?frames=2".into(),
                r#"{"game":"kuhn"}"#.into(),
                StatusCode::BAD_REQUEST,
                "bad query string",
            ),
            // Unknown addresses.
            (
                "GET",
                "/api/nothing".into(),
                String::new(),
                StatusCode::NOT_FOUND,
                "no such page",
            ),
            (
                "GET",
                "/static/".into(),
                String::new(),
                StatusCode::NOT_FOUND,
                "",
            ),
            // Methods an address does not take.
            (
                "PUT",
                "/api/tables".into(),
                "{}".into(),
                StatusCode::METHOD_NOT_ALLOWED,
                "PUT is not allowed here; this address takes POST",
            ),
            (
                "DELETE",
                "/api/games".into(),
                String::new(),
                StatusCode::METHOD_NOT_ALLOWED,
                "DELETE is not allowed",
            ),
            (
                "POST",
                "/".into(),
                String::new(),
                StatusCode::METHOD_NOT_ALLOWED,
                "POST is not allowed",
            ),
            (
                "PATCH",
                format!("/api/tables/{id}"),
                String::new(),
                StatusCode::METHOD_NOT_ALLOWED,
                "GET",
            ),
            // A body over the limit.
            (
                "POST",
                "/api/ladder".into(),
                big.clone(),
                StatusCode::PAYLOAD_TOO_LARGE,
                "larger than the server takes",
            ),
            (
                "POST",
                "/api/tables".into(),
                big,
                StatusCode::PAYLOAD_TOO_LARGE,
                "larger than the server takes",
            ),
        ];
        for (method, uri, body, want, needle) in cases {
            let (status, v, text) = call(&app, method, &uri, &body).await;
            assert_eq!(status, want, "{method} {uri}: {text}");
            let msg = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {uri}: not a JSON error: {text:?}"));
            assert!(msg.contains(needle), "{method} {uri}: {msg}");
        }
        // Engine errors in a player's words: no Rust range, no internal option name.
        for (body, needle) in [
            (
                r#"{"game":"151","options":{"num_players":9}}"#,
                "players must be a whole number between 2 and 4, got 9",
            ),
            (
                r#"{"game":"kuhn","seat":5}"#,
                "seat must be between 0 and 1, got 5",
            ),
        ] {
            let (status, v, _) = call(&app, "POST", "/api/tables", body).await;
            assert_eq!(status, StatusCode::BAD_REQUEST);
            let msg = v["error"].as_str().unwrap();
            assert!(
                msg.contains(needle) && !msg.contains("..="),
                "{body}: {msg}"
            );
        }
        // An illegal move is named in words, with the legal moves in words.
        let url = format!("/api/tables/{id}/action");
        let (_, t, _) = call(&app, "GET", &format!("/api/tables/{id}"), "").await;
        let legal: Vec<String> = t["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["label"].as_str().unwrap().to_string())
            .collect();
        let (status, v, _) = call(&app, "POST", &url, r#"{"action":7}"#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let msg = v["error"].as_str().unwrap();
        assert!(
            msg.contains(&format!("legal: {}", legal.join(", "))),
            "{msg}"
        );
        // Nothing changed.
        let (_, now, _) = call(&app, "GET", &format!("/api/tables/{id}"), "").await;
        assert_eq!(now["log_len"], t["log_len"]);
    });
}

/// Plays `game` through the API with random legal moves to its end; every table seen.
async fn random_game(app: &Router, body: Value, seed: u64) -> Vec<Value> {
    let (status, mut v, text) = call(app, "POST", "/api/tables", &body.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{text}");
    let url = format!(
        "/api/tables/{}/action?frames=true",
        v["id"].as_str().unwrap()
    );
    let mut rng = LaneRng::from_seed(seed);
    let mut seen = vec![v.clone()];
    for _ in 0..5000 {
        if v["finished"].as_bool().unwrap() {
            return seen;
        }
        let legal = v["legal"].as_array().unwrap().clone();
        let pick = &legal[rng.below(legal.len() as u32) as usize];
        v = call(
            app,
            "POST",
            &url,
            &json!({ "action": pick["action"] }).to_string(),
        )
        .await
        .1;
        seen.push(v.clone());
    }
    panic!("{body}: did not end");
}

#[test]
fn flip7_logs_the_card_a_hit_drew_and_names_action_cards_in_words() {
    rt().block_on(async {
        let app = app_with(10);
        let mut hits = 0;
        let mut action_cards = 0;
        for seed in 0..3 {
            let body = json!({ "game": "flip7", "seed": seed, "options": { "num_players": 4 } });
            let seen = random_game(&app, body, seed).await;
            let last = seen.last().unwrap();
            for m in last["log"].as_array().unwrap() {
                let label = m["label"].as_str().unwrap();
                assert!(label != "hit", "a hit without its card: {m}");
                if let Some(card) = label.strip_prefix("hit: ") {
                    hits += 1;
                    let name = card.split(',').next().unwrap();
                    let known = name.parse::<u8>().is_ok_and(|n| n <= 12)
                        || [
                            "+2",
                            "+4",
                            "+6",
                            "+8",
                            "+10",
                            "x2",
                            "Freeze",
                            "Flip Three",
                            "Second Chance",
                        ]
                        .contains(&name)
                        || card == "no card left to draw";
                    assert!(known, "{label}");
                }
                assert!(!label.contains('_') && !label.contains("FREEZE"), "{label}");
            }
            for v in &seen {
                for s in v["view"]["seats"].as_array().unwrap() {
                    for c in s["cards"].as_array().unwrap() {
                        let text = c["text"].as_str().unwrap();
                        assert!(
                            !text.contains('_') && text != text.to_uppercase()
                                || text.chars().all(|ch| !ch.is_alphabetic())
                                || text == "x2",
                            "{text}"
                        );
                        action_cards += (c["id"].as_u64().unwrap() >= 19) as usize;
                    }
                }
            }
        }
        assert!(
            hits > 20 && action_cards > 0,
            "{hits} hits, {action_cards} action cards"
        );
    });
}

#[test]
fn moves_of_151_are_in_the_cards_words_as_the_table_draws_them() {
    rt().block_on(async {
        let app = app_with(10);
        let seen = random_game(&app, json!({ "game": "151", "seed": 3 }), 3).await;
        let mut plays = 0;
        for v in &seen {
            let hand: Vec<String> = v["view"]["seats"][0]["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["text"].as_str().unwrap().to_string())
                .collect();
            for m in v["legal"].as_array().unwrap() {
                let label = m["label"].as_str().unwrap();
                if let Some(card) = label.strip_prefix("play ") {
                    plays += 1;
                    assert!(hand.iter().any(|h| h == card), "{label} not in {hand:?}");
                    assert!(
                        card.ends_with(['♠', '♥', '♦', '♣']) && !card.contains('T'),
                        "{label}"
                    );
                }
                if let Some(suit) = label.strip_prefix("choose ") {
                    assert!(["♠", "♥", "♦", "♣"].contains(&suit), "{label}");
                }
            }
        }
        assert!(plays > 10, "{plays}");
        // The result speaks of the game's count, 151's penalty points.
        let last = seen.last().unwrap();
        assert_eq!(last["result_unit"], json!("penalty points"));
        let results = last["result"]["results"].as_array().unwrap();
        for (p, r) in results.iter().enumerate() {
            let score = last["view"]["seats"][p]["score"].as_f64();
            assert_eq!(r.as_f64(), score, "{results:?}");
        }
    });
}

#[test]
fn holdem_marks_the_blinds() {
    rt().block_on(async {
        let app = app_with(10);
        for n in [2, 3, 6] {
            let body = json!({ "game": "holdem", "seed": n, "options": { "num_players": n } });
            let (status, v, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
            assert_eq!(status, StatusCode::CREATED, "{text}");
            let seats = v["view"]["seats"].as_array().unwrap();
            let marked = |w: &str| -> Vec<usize> {
                seats
                    .iter()
                    .filter(|s| s["blind"] == json!(w))
                    .map(|s| s["seat"].as_u64().unwrap() as usize)
                    .collect()
            };
            let (sb, bb) = (marked("SB"), marked("BB"));
            assert_eq!((sb.len(), bb.len()), (1, 1), "{n} seats: {seats:?}");
            let button = seats
                .iter()
                .position(|s| s["button"] == json!(true))
                .unwrap();
            let want_sb = if n == 2 { button } else { (button + 1) % n };
            assert_eq!(sb[0], want_sb, "{n} seats");
            assert_eq!(bb[0], (want_sb + 1) % n, "{n} seats");
        }
    });
}

#[test]
fn the_game_list_says_player_counts_in_words_and_marks_engine_options() {
    rt().block_on(async {
        let app = app_with(10);
        let (_, _, page) = call(&app, "GET", "/", "").await;
        assert!(
            !page.contains("2–2") && page.contains("2 players"),
            "{page}"
        );
        assert!(
            page.contains("1–18 players") && page.contains("2–4 players"),
            "{page}"
        );
        let (_, games, _) = call(&app, "GET", "/api/games", "").await;
        for g in games.as_array().unwrap() {
            let id = g["id"].as_str().unwrap();
            let info = registry::info(id).unwrap();
            for name in info.engine_options {
                assert!(info.options.iter().any(|o| o.name == *name), "{id}: {name}");
            }
            let engine: Vec<&str> = g["options"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o["engine"] == json!(true))
                .map(|o| o["name"].as_str().unwrap())
                .collect();
            assert_eq!(engine, info.engine_options.to_vec(), "{id}");
            assert!(!g["result_unit"].as_str().unwrap().is_empty());
        }
        let lc = games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == "lost-cities")
            .unwrap();
        assert_eq!(lc["players_text"], json!("2 players"));
        let i151 = games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == "151")
            .unwrap();
        let eng: Vec<&Value> = i151["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["engine"] == json!(true))
            .collect();
        assert!(eng.iter().any(|o| o["name"] == "reward"), "{eng:?}");
        assert!(
            lc["options"][0]["engine"] == json!(true),
            "obs_layout is the engine's"
        );
    });
}

/// `cardvec serve --policy NAME=PATH`: a policy file named at start-up is listed among its
/// game's bots and plays a table by its name; a `policy:` name from a request is refused
/// (the server reads only the files it was started with); bad `--policy` values are errors.
#[test]
fn a_policy_named_at_start_up_plays_at_the_table() {
    use super::tables::NamedPolicy;
    use cardvec::agents::policy_file::testing::{bytes, metadata, mlp_tensors};
    let dir = std::env::temp_dir().join(format!("cardvec-web-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kuhn.safetensors");
    std::fs::write(
        &path,
        bytes(&mlp_tensors(&[11, 8, 2]), metadata("kuhn", "{}", "relu")),
    )
    .unwrap();
    let mut tables = Tables::new(64, Duration::from_secs(3600));
    tables
        .policies
        .push(NamedPolicy::parse(&format!("net-1={}", path.display())).unwrap());
    let app = router(Arc::new(tables));
    rt().block_on(async {
        let (status, games, _) = call(&app, "GET", "/api/games", "").await;
        assert_eq!(status, StatusCode::OK);
        for g in games.as_array().unwrap() {
            let listed = g["bots"].as_array().unwrap().iter().any(|b| b == "net-1");
            assert_eq!(listed, g["id"] == "kuhn", "{}", g["id"]);
        }
        for seed in 0..20 {
            let body = json!({ "game": "kuhn", "bot": "net-1", "seat": seed % 2, "seed": seed });
            let (status, v, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
            assert_eq!(status, StatusCode::CREATED, "{text}");
            assert_eq!(v["bots"][(1 - seed % 2) as usize], "net-1", "{v}");
        }
        let body = json!({ "game": "kuhn", "bot": format!("policy:{}", path.display()) });
        let (status, _, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
        assert!(
            text.contains("named at start-up") && text.contains("net-1"),
            "{text}"
        );
        // The name belongs to its game only.
        let body = json!({ "game": "leduc", "bot": "net-1" });
        let (status, _, text) = call(&app, "POST", "/api/tables", &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}");
    });
    for (spec, want) in [
        ("net-1".to_string(), "expected NAME=PATH"),
        (format!("bad name={}", path.display()), "a name is letters"),
        (
            format!("random={}", path.display()),
            "one of kuhn's own bots",
        ),
        ("x=/nonexistent/p.safetensors".to_string(), "cannot read"),
    ] {
        let e = NamedPolicy::parse(&spec).unwrap_err().to_string();
        assert!(e.contains(want), "{want:?} not in {e}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
