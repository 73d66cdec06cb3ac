//! `cardvec serve`: the web table. An HTTP server (axum on tokio) with one page per
//! registered game to play against the registry's bots, a page to watch 151 replays, PHH
//! hand histories and the arena ladder, a page to solve postflop hold'em spots and read
//! their strategies (`/spot`), and the JSON API those pages use. The pages are
//! plain HTML, CSS and JavaScript embedded in the binary: no build step. See docs/web.md.

pub mod spots;
pub mod tables;
pub mod view;
pub mod watch;

#[cfg(test)]
mod spot_tests;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use cardvec::core::{Error, OptionKind, Result};
use cardvec::registry;
use cardvec::solve::spot::SolveOptions;

use spots::{NewSpot, SpotError, SpotLimits, Spots};
use tables::{ActionRequest, CreateTable, Table, TableError, Tables};

/// `cardvec serve` arguments.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on.
    #[arg(long, default_value_t = 8151)]
    port: u16,
    /// Most tables kept at once.
    #[arg(long, default_value_t = 2000)]
    max_tables: usize,
    /// Minutes after which an unused table may be dropped.
    #[arg(long, default_value_t = 60)]
    idle_minutes: u64,
    /// The most memory one spot's solve may need on the /spot page (`1GB`, `512MB`,
    /// bytes); a larger spot is refused with the figure. Uploaded spot files are taken up
    /// to this size too.
    #[arg(long, default_value = "1GB")]
    spot_max_memory: String,
    /// The most spot solves running at once.
    #[arg(long, default_value_t = 2)]
    spot_solves: usize,
    /// The most spots kept (running or solved); the least recently used solved one is
    /// dropped to make room.
    #[arg(long, default_value_t = 16)]
    spot_keep: usize,
    /// A policy file people can play, `NAME=PATH` (repeatable): listed among the bots of
    /// the game it was trained on, under NAME (docs/policies.md). Each file is read and
    /// checked at start-up.
    #[arg(long, value_name = "NAME=PATH")]
    policy: Vec<String>,
}

/// An API error: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, user_words(&e))
    }
}

/// An engine error in a player's words: an option's range as "between 2 and 6" (not the
/// Rust range `2..=6`), `num_players` as "players".
pub fn user_words(e: &Error) -> String {
    let text = match e {
        Error::OutOfRange {
            what,
            min,
            max,
            got,
        } => {
            let name = match *what {
                "num_players" => "players".to_string(),
                w => w.replace('_', " "),
            };
            if min == max {
                format!("{name} must be {min}, got {got}")
            } else {
                format!("{name} must be between {min} and {max}, got {got}")
            }
        }
        other => other.to_string(),
    };
    ranges_in_words(&text)
        .replace("integer between", "a whole number between")
        .replace("num_players", "players")
}

/// Every Rust range `A..=B` of `text` in words: "between A and B" ("A" when A == B).
fn ranges_in_words(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("..=") {
        let (head, tail) = (&rest[..at], &rest[at + 3..]);
        let lo_len = head
            .bytes()
            .rev()
            .take_while(|b| b.is_ascii_digit() || *b == b'-')
            .count();
        let hi_len = tail
            .bytes()
            .enumerate()
            .take_while(|&(i, b)| b.is_ascii_digit() || (i == 0 && b == b'-'))
            .count();
        let (lo, hi) = (&head[head.len() - lo_len..], &tail[..hi_len]);
        out.push_str(&head[..head.len() - lo_len]);
        if lo.is_empty() || hi.is_empty() {
            out.push_str(&format!("{lo}..={hi}"));
        } else if lo == hi {
            out.push_str(lo);
        } else {
            out.push_str(&format!("between {lo} and {hi}"));
        }
        rest = &tail[hi_len..];
    }
    out.push_str(rest);
    out
}

impl From<SpotError> for ApiError {
    fn from(e: SpotError) -> ApiError {
        match e {
            SpotError::Bad(e) => e.into(),
            SpotError::NotFound(id) => ApiError(StatusCode::NOT_FOUND, format!("no spot {id:?}")),
            SpotError::Busy(m) => ApiError(StatusCode::CONFLICT, m),
            SpotError::Full(m) => ApiError(StatusCode::SERVICE_UNAVAILABLE, m),
        }
    }
}

impl From<TableError> for ApiError {
    fn from(e: TableError) -> ApiError {
        match e {
            TableError::NotFound(id) => ApiError(StatusCode::NOT_FOUND, format!("no table {id:?}")),
            TableError::Full(cap) => ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server keeps at most {cap} tables; try again later"),
            ),
        }
    }
}

type ApiResult = std::result::Result<Response, ApiError>;

fn parse_json<T: DeserializeOwned>(body: &Bytes) -> std::result::Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("malformed JSON body: {e}")))
}

fn text_body(body: &Bytes) -> std::result::Result<&str, ApiError> {
    std::str::from_utf8(body)
        .map_err(|_| ApiError(StatusCode::BAD_REQUEST, "the body is not UTF-8 text".into()))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> std::result::Result<T, ApiError> + Send + 'static,
) -> std::result::Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the request failed: {e}"),
        )
    })?
}

/// The server's state: the tables.
pub type AppState = Arc<Tables>;

/// The router: pages, static files and the JSON API, over `tables` (and no spots kept,
/// under the default [`SpotLimits`]).
#[cfg(test)]
pub fn router(tables: AppState) -> Router {
    router_with(tables, Arc::new(Spots::new(SpotLimits::default())))
}

/// The router over `tables` and `spots`.
pub fn router_with(tables: AppState, spots: Arc<Spots>) -> Router {
    let file_limit = usize::try_from(spots.limits.max_memory)
        .unwrap_or(usize::MAX)
        .clamp(MAX_BODY, 1 << 30);
    let spot_routes = Router::new()
        .route("/spot", get(spot_page))
        .route(
            "/api/spot",
            get(spot_list)
                .post(spot_create)
                .layer(DefaultBodyLimit::max(MAX_BODY)),
        )
        .route(
            "/api/spot/file",
            post(spot_upload).layer(DefaultBodyLimit::max(file_limit)),
        )
        .route("/api/spot/{id}", get(spot_get).delete(spot_delete))
        .route("/api/spot/{id}/cancel", post(spot_cancel))
        .route("/api/spot/{id}/node", get(spot_node))
        .route("/api/spot/{id}/file", get(spot_file))
        .with_state(spots);
    let routes = Router::new()
        .route("/", get(index))
        .route("/play/{game}", get(play_page))
        .route("/watch", get(watch_page))
        .route("/static/{file}", get(static_file))
        .route("/api/games", get(games))
        .route("/api/tables", post(create_table))
        .route("/api/tables/{id}", get(get_table).delete(delete_table))
        .route("/api/tables/{id}/action", post(post_action))
        .route("/api/watch/151", post(watch_151))
        .route("/api/watch/phh", post(watch_phh))
        .route("/api/samples/151-replay", get(sample_replay))
        .route("/api/samples/phh", get(sample_phh))
        .route("/api/ladder", get(ladder_default).post(ladder_post))
        .route("/api/stats", get(stats))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(tables);
    // Outside the routes, so that it sees their answers whole (a 405's `Allow` header is
    // added after a route's own layers have run).
    Router::new()
        .merge(spot_routes)
        .fallback_service(routes)
        .layer(axum::middleware::map_response(json_errors))
}

/// The largest request body the server reads (a ladder log, a replay, a PHH file): 2 MiB.
/// A larger one is refused with 413 and a JSON error.
pub const MAX_BODY: usize = 2 << 20;

/// Every error answer as JSON `{"error": ...}`: the ones the handlers write already are;
/// this rewrites the plain-text or empty ones the framework writes itself (a query string
/// that does not parse, a method the address does not take, a body over [`MAX_BODY`]) in
/// words, keeping their status.
async fn json_errors(method: Method, uri: Uri, resp: Response) -> Response {
    let status = resp.status();
    let json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return resp;
    }
    let allow = resp
        .headers()
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let (_, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => match allow.filter(|a| !a.is_empty()) {
            Some(allow) => format!(
                "{method} is not allowed here; this address takes {}",
                allow.replace(',', ", ")
            ),
            None => format!("{method} is not allowed here"),
        },
        StatusCode::PAYLOAD_TOO_LARGE if uri.path() == "/api/spot/file" => {
            "the spot file is larger than the server takes (cardvec serve --spot-max-memory)"
                .to_string()
        }
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body is larger than the server takes ({MAX_BODY} bytes)")
        }
        _ => match text.strip_prefix("Failed to deserialize query string: ") {
            Some(why) => format!("bad query string: {why}"),
            None if text.is_empty() => status.canonical_reason().unwrap_or("error").to_lowercase(),
            None => text,
        },
    };
    ApiError(status, message).into_response()
}

/// Runs the server until it is stopped.
pub fn run(args: ServeArgs) -> Result<()> {
    let addr: SocketAddr = format!("{}:{}", args.host, args.port)
        .parse()
        .map_err(|_| Error::Invalid {
            what: "address",
            reason: format!("{}:{} is not a host:port address", args.host, args.port),
        })?;
    let mut tables = Tables::new(
        args.max_tables.max(1),
        Duration::from_secs(args.idle_minutes.saturating_mul(60)),
    );
    for spec in &args.policy {
        let p = tables::NamedPolicy::parse(spec)?;
        if tables.policies.iter().any(|q| q.name == p.name) {
            return Err(Error::Invalid {
                what: "--policy",
                reason: format!("the name {:?} is given twice", p.name),
            });
        }
        tables.policies.push(p);
    }
    let tables = Arc::new(tables);
    let spots = Arc::new(Spots::new(SpotLimits {
        max_memory: crate::spot::parse_memory(&args.spot_max_memory).map_err(|_| {
            Error::Invalid {
                what: "--spot-max-memory",
                reason: format!(
                    "{:?} is not a size like 1GB, 512MB, 2GiB or a byte count",
                    args.spot_max_memory
                ),
            }
        })?,
        max_running: args.spot_solves.max(1),
        max_kept: args.spot_keep.max(1),
    }));
    let io = |e: std::io::Error| Error::Invalid {
        what: "server",
        reason: e.to_string(),
    };
    // Table work runs on the blocking pool; a bounded pool queues a burst of requests
    // instead of starting a thread for each.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(64)
        .enable_all()
        .build()
        .map_err(io)?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(io)?;
        let local = listener.local_addr().map_err(io)?;
        println!("cardvec serve: http://{local}/ (Ctrl-C to stop)");
        // Idle tables are dropped once a minute (and whenever the cap is reached).
        let sweeper = tables.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                let t = sweeper.clone();
                let _ = tokio::task::spawn_blocking(move || t.sweep()).await;
            }
        });
        axum::serve(listener, router_with(tables, spots))
            .await
            .map_err(io)
    })
}

const INDEX_HTML: &str = include_str!("static/index.html");
const PLAY_HTML: &str = include_str!("static/play.html");
const WATCH_HTML: &str = include_str!("static/watch.html");
const STYLE_CSS: &str = include_str!("static/style.css");
const CARDS_JS: &str = include_str!("static/cards.js");
const PLAY_JS: &str = include_str!("static/play.js");
const WATCH_JS: &str = include_str!("static/watch.js");
const SPOT_HTML: &str = include_str!("static/spot.html");
const SPOT_JS: &str = include_str!("static/spot.js");

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A player range in words: "2 players", "3–18 players".
pub fn players_text((lo, hi): (usize, usize)) -> String {
    if lo == hi {
        format!("{lo} players")
    } else {
        format!("{lo}–{hi} players")
    }
}

async fn index() -> Html<String> {
    let items: String = registry::GAMES
        .iter()
        .map(|g| {
            format!(
                "<li><a href=\"/play/{id}\">{title}</a> <code>{id}</code> <span class=\"muted\">{players} · {summary}</span></li>\n",
                id = escape(g.id),
                title = escape(g.title),
                players = players_text(g.num_players),
                summary = escape(g.summary),
            )
        })
        .collect();
    Html(INDEX_HTML.replace("{{GAMES}}", &items))
}

async fn play_page(Path(game): Path<String>) -> ApiResult {
    let info = registry::info(&game).map_err(|e| ApiError(StatusCode::NOT_FOUND, e.to_string()))?;
    Ok(Html(
        PLAY_HTML
            .replace("{{GAME}}", &escape(info.id))
            .replace("{{TITLE}}", &escape(info.title)),
    )
    .into_response())
}

async fn watch_page() -> Html<&'static str> {
    Html(WATCH_HTML)
}

async fn static_file(Path(file): Path<String>) -> ApiResult {
    let (body, mime) = match file.as_str() {
        "style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
        "cards.js" => (CARDS_JS, "text/javascript; charset=utf-8"),
        "play.js" => (PLAY_JS, "text/javascript; charset=utf-8"),
        "watch.js" => (WATCH_JS, "text/javascript; charset=utf-8"),
        "spot.js" => (SPOT_JS, "text/javascript; charset=utf-8"),
        _ => return Err(ApiError(StatusCode::NOT_FOUND, format!("no file {file:?}"))),
    };
    Ok(([(header::CONTENT_TYPE, mime)], body).into_response())
}

fn option_json(spec: &cardvec::core::OptionSpec, engine: bool) -> Value {
    let (kind, min, max, choices) = match spec.kind {
        OptionKind::Int { min, max } => ("int", json!(min), json!(max), Value::Null),
        OptionKind::OptionalInt { min, max } => {
            ("optional-int", json!(min), json!(max), Value::Null)
        }
        OptionKind::IntList { min, max } => ("int-list", json!(min), json!(max), Value::Null),
        OptionKind::FloatList { min, max } => ("float-list", json!(min), json!(max), Value::Null),
        OptionKind::Choice(words) => ("choice", Value::Null, Value::Null, json!(words)),
    };
    json!({ "name": spec.name, "kind": kind, "min": min, "max": max, "choices": choices,
            "default": spec.default, "doc": spec.doc, "engine": engine })
}

async fn games(State(tables): State<AppState>) -> Json<Value> {
    let list: Vec<Value> = registry::GAMES
        .iter()
        .map(|g| {
            let mut bots: Vec<String> = g.bots.iter().map(|b| b.to_string()).collect();
            bots.extend(
                tables
                    .policies
                    .iter()
                    .filter(|p| p.game == g.id)
                    .map(|p| p.name.clone()),
            );
            json!({
                "id": g.id, "title": g.title, "summary": g.summary, "docs": g.docs,
                "players": [g.num_players.0, g.num_players.1],
                "players_text": players_text(g.num_players),
                "options": g.options.iter()
                    .map(|o| option_json(o, g.engine_options.contains(&o.name)))
                    .collect::<Vec<_>>(),
                "bots": bots, "default_bot": g.match_bots.first(),
                "reward_unit": g.reward_unit, "result_unit": g.result_unit,
            })
        })
        .collect();
    Json(json!(list))
}

async fn create_table(
    State(tables): State<AppState>,
    Query(q): Query<LogFrom>,
    body: Bytes,
) -> ApiResult {
    let req: CreateTable = parse_json(&body)?;
    blocking(move || {
        let table = Table::with_policies(&req, &tables.policies)?;
        let view = table.to_json("", 0, q.frames);
        let id = tables.insert(table)?;
        let mut view = view;
        view["id"] = json!(id);
        Ok((StatusCode::CREATED, Json(view)).into_response())
    })
    .await
}

#[derive(Deserialize)]
struct LogFrom {
    #[serde(default)]
    log_from: usize,
    #[serde(default)]
    frames: bool,
}

async fn get_table(
    State(tables): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<LogFrom>,
) -> ApiResult {
    let table = tables.get(&id)?;
    let mut t = table.lock().unwrap_or_else(|e| e.into_inner());
    t.touch();
    Ok(Json(t.to_json(&id, q.log_from, q.frames)).into_response())
}

async fn delete_table(State(tables): State<AppState>, Path(id): Path<String>) -> ApiResult {
    if tables.remove(&id) {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(TableError::NotFound(id).into())
    }
}

async fn post_action(
    State(tables): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<LogFrom>,
    body: Bytes,
) -> ApiResult {
    let table = tables.get(&id)?;
    let req: ActionRequest = parse_json(&body)?;
    blocking(move || {
        let mut t = table.lock().unwrap_or_else(|e| e.into_inner());
        t.act(&req)?;
        Ok(Json(t.to_json(&id, q.log_from, q.frames)).into_response())
    })
    .await
}

async fn watch_151(body: Bytes) -> ApiResult {
    let text = text_body(&body)?.to_string();
    blocking(move || Ok(Json(watch::replay_151(&text)?).into_response())).await
}

async fn watch_phh(body: Bytes) -> ApiResult {
    let text = text_body(&body)?.to_string();
    blocking(move || Ok(Json(watch::phh_frames(&text)?).into_response())).await
}

#[derive(Deserialize)]
struct SampleQuery {
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    players: Option<usize>,
}

async fn sample_replay(Query(q): Query<SampleQuery>) -> ApiResult {
    blocking(move || {
        let text = watch::sample_replay(q.seed)?;
        Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
    })
    .await
}

async fn sample_phh(Query(q): Query<SampleQuery>) -> ApiResult {
    blocking(move || {
        let text = watch::sample_phh(q.seed, q.players.unwrap_or(3))?;
        Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
    })
    .await
}

async fn stats(State(tables): State<AppState>) -> Json<Value> {
    Json(json!({ "tables": tables.len(), "cap": tables.cap }))
}

async fn ladder_default() -> ApiResult {
    Ok(Json(watch::ladder(watch::LADDER_LOG)?).into_response())
}

async fn ladder_post(body: Bytes) -> ApiResult {
    let text = text_body(&body)?.to_string();
    blocking(move || Ok(Json(watch::ladder(&text)?).into_response())).await
}

async fn spot_page() -> Html<&'static str> {
    Html(SPOT_HTML)
}

type SpotState = Arc<Spots>;

async fn spot_list(State(spots): State<SpotState>) -> Json<Value> {
    Json(spots.list())
}

/// `POST /api/spot`: a spot's parameters (the JSON of a `cardvec spot batch` line); the
/// solve starts in the background. Every bad input is a 400 that creates nothing.
async fn spot_create(State(spots): State<SpotState>, body: Bytes) -> ApiResult {
    let params: crate::spot::SpotParams = parse_json(&body)?;
    blocking(move || {
        let (spot, options, locks) = params.prepare()?;
        let (solver, options) = spots.build(&spot, &options, &locks)?;
        let (id, job) = spots.start(NewSpot {
            solver,
            options,
            solve: true,
            source: "params",
        })?;
        Ok((StatusCode::CREATED, Json(job.to_json(&id))).into_response())
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UploadQuery {
    /// Iterations to run on (absent or 0: open the file as it is).
    #[serde(default)]
    iterations: Option<u64>,
    /// The target exploitability in % of the pot (default: the file's).
    #[serde(default)]
    target: Option<f64>,
    /// The check interval (default: the file's).
    #[serde(default)]
    check_every: Option<u64>,
}

/// `POST /api/spot/file`: a spot file (the body, as saved by `cardvec spot solve --save`
/// or downloaded here), read under the server's memory cap; opened as it is, or solved on
/// for `?iterations=N` (and `target`, `check_every`; else the file's).
async fn spot_upload(
    State(spots): State<SpotState>,
    Query(q): Query<UploadQuery>,
    body: Bytes,
) -> ApiResult {
    blocking(move || {
        let (solver, saved) = spots.read_file(&body)?;
        let iterations = q.iterations.unwrap_or(0);
        let options = SolveOptions {
            max_iterations: iterations.max(1),
            target_pct: q.target.unwrap_or(saved.target_pct),
            check_every: q.check_every.unwrap_or(saved.check_every),
            time_limit: None,
            ..saved
        };
        options.check()?;
        let (id, job) = spots.start(NewSpot {
            solver,
            options,
            solve: iterations > 0,
            source: "file",
        })?;
        Ok((StatusCode::CREATED, Json(job.to_json(&id))).into_response())
    })
    .await
}

async fn spot_get(State(spots): State<SpotState>, Path(id): Path<String>) -> ApiResult {
    Ok(Json(spots.get(&id)?.to_json(&id)).into_response())
}

async fn spot_delete(State(spots): State<SpotState>, Path(id): Path<String>) -> ApiResult {
    if spots.remove(&id) {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(SpotError::NotFound(id).into())
    }
}

/// `POST /api/spot/{id}/cancel`: the solve stops after the iteration under way, keeping
/// the strategy reached (a finished spot is left as it is).
async fn spot_cancel(State(spots): State<SpotState>, Path(id): Path<String>) -> ApiResult {
    let job = spots.get(&id)?;
    job.cancel();
    Ok(Json(job.to_json(&id)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NodeQuery {
    /// The line of actions from the root (`check,bet:75%,call,Kh`; empty: the root).
    #[serde(default)]
    line: String,
    /// Cards dealt at the chance nodes the line reaches without one (`Kh,7d`).
    #[serde(default)]
    cards: String,
}

/// `GET /api/spot/{id}/node?line=...&cards=...`: the node's report, as `cardvec spot show
/// --json` prints it, for both players.
async fn spot_node(
    State(spots): State<SpotState>,
    Path(id): Path<String>,
    Query(q): Query<NodeQuery>,
) -> ApiResult {
    let job = spots.get(&id)?;
    blocking(move || {
        let cards = crate::spot::parse_card_list(&q.cards)?;
        let v = job.with_solver(&id, |solver, _| {
            let r = solver.node_report(&q.line, &cards)?;
            Ok(crate::spot::report_json(solver, &r, &[0, 1]))
        })?;
        Ok(Json(v).into_response())
    })
    .await
}

/// `GET /api/spot/{id}/file`: the solved spot as a spot file (`cardvec spot show` and
/// `cardvec spot solve --resume` read it).
async fn spot_file(State(spots): State<SpotState>, Path(id): Path<String>) -> ApiResult {
    let job = spots.get(&id)?;
    blocking(move || {
        let (bytes, board) = job.with_solver(&id, |solver, options| {
            let mut buf = Vec::new();
            solver.write_to(&mut buf, options)?;
            let board: String = solver
                .spot()
                .board()
                .iter()
                .map(|c| c.to_string())
                .collect();
            Ok((buf, board))
        })?;
        let disposition = format!("attachment; filename=\"{board}.cvspot\"");
        Ok((
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            bytes,
        )
            .into_response())
    })
    .await
}
