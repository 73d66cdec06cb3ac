//! The postflop spot solver behind the `/spot` page: solves started from a spot's
//! parameters or from an uploaded spot file, each run on a thread of its own (never on the
//! async runtime) with its progress kept for the page to poll, cancelled by a stop flag, and
//! kept once finished for node queries and the download of its spot file. The server caps
//! the memory of one spot, the solves running at once and the solutions kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use cardvec::core::{Error, Result, StopFlag};
use cardvec::solve::spot::{NodeLock, SolveOptions, Spot, SpotSolver};
use serde_json::{json, Value};

/// The server's limits on spot solves.
#[derive(Clone, Copy, Debug)]
pub struct SpotLimits {
    /// The most memory one spot's solve may need, in bytes (`--spot-max-memory`).
    pub max_memory: u64,
    /// The most solves running at once (`--spot-solves`).
    pub max_running: usize,
    /// The most spots kept, running or finished (`--spot-keep`); the least recently used
    /// finished one is dropped to make room.
    pub max_kept: usize,
}

impl Default for SpotLimits {
    fn default() -> SpotLimits {
        SpotLimits {
            max_memory: 1_000_000_000,
            max_running: 2,
            max_kept: 16,
        }
    }
}

/// Why a spot request failed, beyond a bad input.
#[derive(Debug)]
pub enum SpotError {
    /// Bad input (400).
    Bad(Error),
    /// No spot has this id (404).
    NotFound(String),
    /// The spot is still being solved (409).
    Busy(String),
    /// A cap is reached (503), in words.
    Full(String),
}

impl From<Error> for SpotError {
    fn from(e: Error) -> SpotError {
        SpotError::Bad(e)
    }
}

/// Where a spot's solve is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Running,
    Done,
    Failed,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed => "failed",
        }
    }
}

/// What the page polls: the progress and, once finished, the summary.
struct Progress {
    status: Status,
    iterations: u64,
    exploitability_pct: Option<f64>,
    seconds: f64,
    history: Vec<(u64, f64)>,
    summary: Value,
    error: Option<String>,
    last_used: Instant,
}

/// One spot: its description, its progress, and its solver once the solve has stopped.
pub struct SpotJob {
    /// The spot and how it is solved (board, pot, stack, hands, nodes, memory, options).
    info: Value,
    stop: StopFlag,
    progress: Mutex<Progress>,
    solver: Mutex<Option<(SpotSolver, SolveOptions)>>,
}

impl SpotJob {
    /// The job as the page sees it.
    pub fn to_json(&self, id: &str) -> Value {
        let p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        let mut v = self.info.clone();
        v["id"] = json!(id);
        v["status"] = json!(p.status.word());
        v["iterations"] = json!(p.iterations);
        v["exploitability_pct"] = json!(p.exploitability_pct);
        v["seconds"] = json!(p.seconds);
        v["history"] = json!(p.history);
        v["summary"] = p.summary.clone();
        v["error"] = json!(p.error);
        v
    }

    fn status(&self) -> Status {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .status
    }

    fn touch(&self) {
        self.progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .last_used = Instant::now();
    }

    /// Runs `f` on the finished solver (a `Busy` error while it is being solved, a `Bad`
    /// one if its solve failed).
    pub fn with_solver<T>(
        &self,
        id: &str,
        f: impl FnOnce(&mut SpotSolver, &SolveOptions) -> Result<T>,
    ) -> std::result::Result<T, SpotError> {
        match self.status() {
            Status::Running => {
                return Err(SpotError::Busy(format!(
                    "spot {id} is still being solved; wait for it or cancel it"
                )))
            }
            Status::Failed => {
                return Err(SpotError::Bad(Error::Invalid {
                    what: "spot",
                    reason: format!("the solve of spot {id} failed; there is no strategy"),
                }))
            }
            Status::Done => {}
        }
        self.touch();
        let mut guard = self.solver.lock().unwrap_or_else(|e| e.into_inner());
        let (solver, options) = guard.as_mut().ok_or_else(|| {
            SpotError::Busy(format!("spot {id} is still being solved; wait for it"))
        })?;
        Ok(f(solver, options)?)
    }

    /// Raises the stop flag: the solve ends after the iteration under way, keeping the
    /// strategy reached (stop `interrupted`).
    pub fn cancel(&self) {
        self.stop.stop();
    }
}

/// The spots of a server, by id.
pub struct Spots {
    /// The limits.
    pub limits: SpotLimits,
    map: Mutex<HashMap<String, Arc<SpotJob>>>,
    counter: Mutex<u64>,
}

/// How a new spot's solve runs: from iteration 0 or a file's iterations, or (a file opened
/// with no iterations asked) no solve, only the exploitability of the file's strategy.
pub struct NewSpot {
    /// The solver, built (its memory allocated) and checked.
    pub solver: SpotSolver,
    /// The options of the solve.
    pub options: SolveOptions,
    /// Whether to run iterations (false: only evaluate the strategy as it is).
    pub solve: bool,
    /// Where it came from: `params` or `file`.
    pub source: &'static str,
}

impl Spots {
    /// No spots, under `limits`.
    pub fn new(limits: SpotLimits) -> Spots {
        let salt = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Spots {
            limits: SpotLimits {
                max_memory: limits.max_memory.max(1),
                max_running: limits.max_running.max(1),
                max_kept: limits.max_kept.max(1),
            },
            map: Mutex::new(HashMap::new()),
            counter: Mutex::new(salt ^ 0x5107),
        }
    }

    fn next_id(&self) -> String {
        let mut c = self.counter.lock().unwrap_or_else(|e| e.into_inner());
        *c = c.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *c;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("s{:015x}", (z ^ (z >> 31)) >> 4)
    }

    /// Checks a spot and its options against the server's memory cap before anything is
    /// allocated, then builds the solver with `locks` set: every error here is the caller's
    /// (400) and creates nothing.
    pub fn build(
        &self,
        spot: &Spot,
        options: &SolveOptions,
        locks: &[NodeLock],
    ) -> Result<(SpotSolver, SolveOptions)> {
        let mut options = *options;
        options.max_memory = options.max_memory.min(self.limits.max_memory);
        let (tree, memory) = SpotSolver::plan(spot, &options)?;
        tree.check_locks(spot, locks)?;
        drop(tree);
        if memory.total_bytes > options.max_memory {
            return Err(Error::Invalid {
                what: "spot",
                reason: format!(
                    "the solve needs {} bytes ({:.1} MB: {} nodes, {} slots) and this server \
                     solves spots of at most {} bytes ({:.1} MB; cardvec serve \
                     --spot-max-memory); use fewer bet sizes or narrower ranges",
                    memory.total_bytes,
                    memory.total_bytes as f64 / 1e6,
                    memory.nodes,
                    memory.slots,
                    options.max_memory,
                    options.max_memory as f64 / 1e6
                ),
            });
        }
        let mut solver = SpotSolver::new(spot, &options)?;
        solver.set_locks(locks)?;
        Ok((solver, options))
    }

    /// Reads an uploaded spot file under the server's memory cap.
    pub fn read_file(&self, bytes: &[u8]) -> Result<(SpotSolver, SolveOptions)> {
        SpotSolver::read_from_limited(bytes, self.limits.max_memory)
    }

    /// Keeps `new` under a new id and starts its solve on a thread of its own; `Full` when
    /// as many solves as the cap are running, or when as many spots as the cap are kept
    /// and none of them is finished (else the least recently used finished one is dropped).
    pub fn start(&self, new: NewSpot) -> std::result::Result<(String, Arc<SpotJob>), SpotError> {
        let NewSpot {
            solver,
            options,
            solve,
            source,
        } = new;
        let spot = solver.spot();
        let memory = solver.memory();
        let info = json!({
            "source": source,
            "board": spot.board().iter().map(|c| c.to_string()).collect::<String>(),
            "pot": spot.pot(),
            "stack": spot.stack(),
            "hands": [spot.hands(0).len(), spot.hands(1).len()],
            "nodes": memory.nodes,
            "memory_bytes": memory.total_bytes,
            "algorithm": solver.algorithm().name(),
            "start_iterations": solver.iterations(),
            "max_iterations": if solve { options.max_iterations } else { 0 },
            "target": options.target_pct,
            "check_every": options.check_every,
            "locks": solver.locks().iter().map(|l| l.to_string()).collect::<Vec<_>>(),
        });
        let job = Arc::new(SpotJob {
            info,
            stop: StopFlag::new(),
            progress: Mutex::new(Progress {
                status: Status::Running,
                iterations: solver.iterations(),
                exploitability_pct: None,
                seconds: 0.0,
                history: Vec::new(),
                summary: Value::Null,
                error: None,
                last_used: Instant::now(),
            }),
            solver: Mutex::new(None),
        });
        let id = self.next_id();
        {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            let running = map
                .values()
                .filter(|j| j.status() == Status::Running)
                .count();
            if running >= self.limits.max_running {
                return Err(SpotError::Full(format!(
                    "the server solves at most {} spots at once; wait for one to finish or \
                     cancel one",
                    self.limits.max_running
                )));
            }
            if map.len() >= self.limits.max_kept {
                let oldest = map
                    .iter()
                    .filter(|(_, j)| j.status() != Status::Running)
                    .min_by_key(|(_, j)| {
                        j.progress
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .last_used
                    })
                    .map(|(k, _)| k.clone());
                match oldest {
                    Some(k) => {
                        map.remove(&k);
                    }
                    None => {
                        return Err(SpotError::Full(format!(
                            "the server keeps at most {} spots and all are being solved",
                            self.limits.max_kept
                        )))
                    }
                }
            }
            map.insert(id.clone(), job.clone());
        }
        let runner = job.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("spot-{id}"))
            .spawn(move || run_job(&runner, solver, options, solve));
        if let Err(e) = spawned {
            self.remove(&id);
            return Err(SpotError::Full(format!("no thread for the solve: {e}")));
        }
        Ok((id, job))
    }

    /// The spot `id`.
    pub fn get(&self, id: &str) -> std::result::Result<Arc<SpotJob>, SpotError> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(id)
            .cloned()
            .ok_or_else(|| SpotError::NotFound(id.to_string()))
    }

    /// Drops spot `id`, stopping its solve; whether it was there.
    pub fn remove(&self, id: &str) -> bool {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        match map.remove(id) {
            Some(job) => {
                job.cancel();
                true
            }
            None => false,
        }
    }

    /// Every spot kept, newest use first, and the limits.
    pub fn list(&self) -> Value {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let mut jobs: Vec<(&String, &Arc<SpotJob>)> = map.iter().collect();
        jobs.sort_by_key(|(id, j)| {
            let t = j
                .progress
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .last_used;
            (std::cmp::Reverse(t), (*id).clone())
        });
        let spots: Vec<Value> = jobs
            .iter()
            .map(|(id, j)| {
                let mut v = j.to_json(id);
                if let Some(o) = v.as_object_mut() {
                    o.remove("history");
                }
                v
            })
            .collect();
        let running = map
            .values()
            .filter(|j| j.status() == Status::Running)
            .count();
        json!({
            "spots": spots,
            "running": running,
            "max_running": self.limits.max_running,
            "max_kept": self.limits.max_kept,
            "max_memory": self.limits.max_memory,
        })
    }
}

/// The solve of one job (on its own thread): progress at every check, then the summary and
/// the solver kept; a failure or a panic becomes the job's error.
fn run_job(job: &SpotJob, mut solver: SpotSolver, options: SolveOptions, solve: bool) {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> Result<Value> {
        if !solve {
            let start = Instant::now();
            let exploitability = solver.exploitability();
            let pot = solver.spot().pot() as f64;
            return Ok(json!({
                "algorithm": solver.algorithm().name(),
                "iterations": solver.iterations(),
                "exploitability": exploitability,
                "exploitability_pct": 100.0 * exploitability / pot,
                "root_ev": solver.root_ev(),
                "root_equity": solver.root_equity(),
                "seconds": start.elapsed().as_secs_f64(),
                "stop": "opened",
            }));
        }
        let sol = solver.solve_with_stop(&options, &job.stop, &mut |p| {
            let mut g = job.progress.lock().unwrap_or_else(|e| e.into_inner());
            g.iterations = p.iterations;
            g.exploitability_pct = Some(p.exploitability_pct);
            g.seconds = p.seconds;
            g.history.push((p.iterations, p.exploitability_pct));
            true
        })?;
        let mut v = json!(sol);
        if let Some(o) = v.as_object_mut() {
            o.remove("history");
            o.remove("memory");
        }
        Ok(v)
    }));
    let result = match outcome {
        Ok(r) => r.map_err(|e| crate::web::user_words(&e)),
        Err(_) => Err("the solve failed (a panic in the solver)".to_string()),
    };
    // The solver first, so that a page seeing `done` finds it.
    let ok = result.is_ok();
    if ok {
        *job.solver.lock().unwrap_or_else(|e| e.into_inner()) = Some((solver, options));
    }
    let mut g = job.progress.lock().unwrap_or_else(|e| e.into_inner());
    match result {
        Ok(summary) => {
            g.iterations = summary["iterations"].as_u64().unwrap_or(g.iterations);
            g.exploitability_pct = summary["exploitability_pct"].as_f64();
            if let Some(s) = summary["seconds"].as_f64() {
                g.seconds = s;
            }
            g.summary = summary;
            g.status = Status::Done;
        }
        Err(e) => {
            g.error = Some(e);
            g.status = Status::Failed;
        }
    }
    g.last_used = Instant::now();
}
