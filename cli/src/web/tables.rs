//! The tables the server keeps: one game of any registered game in a one-lane batch
//! environment, a human seat, the registry's bots at the other seats, the log of every
//! move. Everything here is synchronous and knows no HTTP.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{json, Value};

use cardvec::core::{
    Bot, DynEnv, EnvOptions, Error, GameSpec, LaneRng, OptionValue, Outcome, Result, VecEnv,
};
use cardvec::registry::{self, Visitor};

use super::view;

/// Most moves the bots make in a row before the server gives up on a table (no registered
/// game comes near it).
const MAX_BOT_RUN: usize = 200_000;

/// What `POST /api/tables` takes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The game id (`registry::ids`).
    pub game: String,
    /// Options: an object `{"num_players": 5}` or the text form `"num_players=5"`.
    #[serde(default)]
    pub options: Option<Value>,
    /// The human seat (default 0).
    #[serde(default)]
    pub seat: Option<usize>,
    /// One bot name for every other seat.
    #[serde(default)]
    pub bot: Option<String>,
    /// A bot name per seat (`null` or anything at the human seat), overriding `bot`.
    #[serde(default)]
    pub bots: Option<Vec<Option<String>>>,
    /// The deal's seed (default 0).
    #[serde(default)]
    pub seed: Option<u64>,
    /// An explicit deal instead of the seed's: the card order the game's
    /// `reset_from_order` takes (hold'em: each seat's two hole card ids, then the five
    /// board cards), checked like it.
    #[serde(default)]
    pub deal: Option<Vec<u8>>,
}

/// What `POST /api/tables/{id}/action` takes: an action id, or (hold'em) a raise-to.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The action id (hold'em: also `EXACT_RAISE | chips`).
    #[serde(default)]
    pub action: Option<u32>,
    /// Hold'em: raise to exactly this many chips.
    #[serde(default)]
    pub raise_to: Option<u64>,
}

/// One move in a table's log.
#[derive(Clone, Debug)]
pub struct Move {
    /// The seat that moved.
    pub seat: usize,
    /// Who played it: `you` or the bot's name.
    pub by: String,
    /// The action id.
    pub action: u32,
    /// What it did, in words.
    pub label: String,
}

/// A bot at one seat of one table: the game's own bot object ([`GameSpec::bot`]), kept for
/// the whole game, so that a bot that remembers between its decisions (151's tracking
/// minmax) plays at the web table too.
trait SeatBot: Send {
    /// The bot's action in lane 0 of `env`, drawing from a stream seeded `seed`.
    fn act(&self, env: &dyn DynEnv, seed: u64) -> Result<u32>;
}

struct TypedBot<G: GameSpec>(Box<dyn Bot<G>>);

fn typed<G: GameSpec>(env: &dyn DynEnv) -> Result<&VecEnv<G>> {
    env.as_any()
        .downcast_ref::<VecEnv<G>>()
        .ok_or_else(|| Error::Invalid {
            what: "table",
            reason: format!("the environment is not {}", G::INFO.id),
        })
}

impl<G: GameSpec> SeatBot for TypedBot<G> {
    fn act(&self, env: &dyn DynEnv, seed: u64) -> Result<u32> {
        let venv = typed::<G>(env)?;
        let mask = &venv.legal_mask()[..venv.game().num_actions()];
        let mut rng = LaneRng::from_seed(seed);
        Ok(self.0.act(venv.game(), venv.state(0)?, mask, &mut rng))
    }
}

struct MakeBot<'a> {
    env: &'a dyn DynEnv,
    name: &'a str,
}

impl Visitor for MakeBot<'_> {
    type Output = Result<Box<dyn SeatBot>>;
    fn visit<G: GameSpec>(&mut self) -> Self::Output {
        let bot = cardvec::agents::bot(typed::<G>(self.env)?.game(), self.name)?;
        Ok(Box::new(TypedBot(bot)))
    }
}

/// One game at the table.
pub struct Table {
    env: Box<dyn DynEnv>,
    game: &'static str,
    options: String,
    seat: usize,
    bots: Vec<Option<String>>,
    players: Vec<Option<Box<dyn SeatBot>>>,
    seed: u64,
    log: Vec<Move>,
    totals: Vec<f64>,
    /// The table after each move of the last request (log index, view), for the page to
    /// draw the bots' moves one by one.
    frames: Vec<(usize, Value)>,
    last_used: Instant,
}

fn json_option(v: &Value) -> OptionValue {
    match v {
        Value::Null => OptionValue::None,
        Value::Bool(b) => OptionValue::Int(*b as i64),
        Value::Number(n) => match n.as_i64() {
            Some(i) => OptionValue::Int(i),
            None => OptionValue::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => OptionValue::parse(s),
        Value::Array(items) => OptionValue::List(items.iter().map(json_option).collect()),
        Value::Object(_) => OptionValue::Text(v.to_string()),
    }
}

fn option_pairs(options: &Option<Value>) -> Result<Vec<(String, OptionValue)>> {
    match options {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(text)) => Ok(cardvec::core::spec::split_pairs(text)?
            .into_iter()
            .map(|(k, v)| (k, OptionValue::parse(&v)))
            .collect()),
        Some(Value::Object(map)) => Ok(map
            .iter()
            .map(|(k, v)| (k.clone(), json_option(v)))
            .collect()),
        Some(other) => Err(Error::Invalid {
            what: "options",
            reason: format!("expected an object or name=value text, got {other}"),
        }),
    }
}

impl Table {
    /// A new table as `req` asks, the bots played up to the human seat's first decision
    /// (no policy files named: see [`Table::with_policies`]). Only the tests build tables
    /// without the server's policy files.
    #[cfg(test)]
    pub fn new(req: &CreateTable) -> Result<Table> {
        Table::with_policies(req, &[])
    }

    /// A new table as `req` asks, the bots played up to the human seat's first decision,
    /// with the policy files named at start-up playable by their names
    /// ([`resolve_name`]).
    pub fn with_policies(req: &CreateTable, policies: &[NamedPolicy]) -> Result<Table> {
        let info = registry::info(&req.game)?;
        let pairs = option_pairs(&req.options)?;
        let mut env = registry::make(&req.game, pairs, EnvOptions::new(1))?;
        env.set_autoreset(false);
        let n = env.num_players();
        let seat = req.seat.unwrap_or(0);
        Error::check_range("seat", 0, n as i64 - 1, seat as i64)?;
        let default_bot = req
            .bot
            .clone()
            .or_else(|| info.match_bots.first().map(|b| b.to_string()))
            .unwrap_or_else(|| "random".into());
        let bots: Vec<Option<String>> = match &req.bots {
            Some(list) => {
                if list.len() != n && list.len() != n - 1 {
                    return Err(Error::Invalid {
                        what: "bots",
                        reason: format!(
                            "give {} names (one per seat) or {} (the other seats), got {}",
                            n,
                            n - 1,
                            list.len()
                        ),
                    });
                }
                let mut others = list.iter();
                (0..n)
                    .map(|p| {
                        if list.len() == n {
                            let b = list[p].clone();
                            if p == seat {
                                None
                            } else {
                                Some(b.unwrap_or_else(|| default_bot.clone()))
                            }
                        } else if p == seat {
                            None
                        } else {
                            Some(
                                others
                                    .next()
                                    .cloned()
                                    .flatten()
                                    .unwrap_or_else(|| default_bot.clone()),
                            )
                        }
                    })
                    .collect()
            }
            None => (0..n)
                .map(|p| (p != seat).then(|| default_bot.clone()))
                .collect(),
        };
        let seed = req.seed.unwrap_or(0);
        env.reset(seed);
        if let Some(order) = &req.deal {
            env.reset_lane_from_order(0, order)?;
        }
        // Every bot is made before the first move (an unknown name lists the game's).
        let players = bots
            .iter()
            .map(|b| {
                b.as_deref()
                    .map(|name| {
                        let name = &resolve_name(policies, info.id, name)?;
                        registry::visit(info.id, &mut MakeBot { env: &*env, name })?
                    })
                    .transpose()
            })
            .collect::<Result<Vec<_>>>()?;
        let totals = env.rewards().iter().map(|&r| r as f64).collect();
        let options = env.config().to_string();
        let mut table = Table {
            env,
            game: info.id,
            options,
            seat,
            bots,
            players,
            seed,
            log: Vec::new(),
            totals,
            frames: Vec::new(),
            last_used: Instant::now(),
        };
        table.run_bots()?;
        Ok(table)
    }

    fn done(&self) -> bool {
        self.env.terminated()[0] || self.env.truncated()[0]
    }

    fn to_act(&self) -> usize {
        self.env.current_player()[0].max(0) as usize
    }

    fn apply(&mut self, action: u32, by: String) -> Result<()> {
        let seat = self.to_act();
        let label = view::action_label(&*self.env, action);
        let before = self.env.state_bytes(0)?.to_vec();
        self.env.step(&[action])?;
        if self.env.illegal()[0] != 0 {
            let range = view::view(&*self.env, seat, false)["legal"].clone();
            let raise = match (range["raise"].as_bool(), range["min_raise_to"].as_u64()) {
                (Some(true), Some(lo)) => {
                    format!(
                        "; raise to between {lo} and {} chips",
                        range["max_raise_to"].as_u64().unwrap_or(lo)
                    )
                }
                (Some(false), _) => "; no raise is legal".to_string(),
                _ => String::new(),
            };
            return Err(Error::Invalid {
                what: "action",
                reason: format!(
                    "{label} is not legal now; legal: {}{raise}",
                    self.legal_text()
                ),
            });
        }
        for (t, &r) in self.totals.iter_mut().zip(self.env.rewards()) {
            *t += r as f64;
        }
        let label = view::move_label(&*self.env, &before, action);
        self.log.push(Move {
            seat,
            by,
            action,
            label,
        });
        let done = self.done();
        self.frames
            .push((self.log.len() - 1, view::view(&*self.env, self.seat, done)));
        Ok(())
    }

    fn run_bots(&mut self) -> Result<()> {
        for _ in 0..MAX_BOT_RUN {
            if self.done() || self.to_act() == self.seat {
                return Ok(());
            }
            let seat = self.to_act();
            let name = self.bots[seat].clone().unwrap_or_default();
            // Each bot decision draws from its own stream: (seed, move number).
            let k = self.log.len() as u64;
            let seed = self.seed ^ (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let action = match &self.players[seat] {
                Some(bot) => bot.act(&*self.env, seed)?,
                None => {
                    return Err(Error::Invalid {
                        what: "table",
                        reason: format!("seat {seat} has no bot"),
                    })
                }
            };
            self.apply(action, name)?;
        }
        Err(Error::Invalid {
            what: "table",
            reason: format!("the bots made {MAX_BOT_RUN} moves in a row"),
        })
    }

    /// Marks the table as used now (it expires after the server's idle time from then).
    pub fn touch(&mut self) {
        self.last_used = Instant::now();
    }

    /// Plays the human seat's `req`, then the bots up to its next decision. An illegal
    /// action, or any action once the game is over, is an error that changes nothing.
    pub fn act(&mut self, req: &ActionRequest) -> Result<()> {
        self.touch();
        if self.done() {
            return Err(Error::Invalid {
                what: "action",
                reason: "the game is over (start a new table)".into(),
            });
        }
        self.frames.clear();
        let action = match (req.action, req.raise_to) {
            (Some(a), None) => a,
            (None, Some(chips)) if self.game == "holdem" => {
                if chips >= cardvec::games::holdem::EXACT_RAISE as u64 {
                    return Err(Error::Invalid {
                        what: "raise_to",
                        reason: format!("{chips} chips is more than any table holds"),
                    });
                }
                cardvec::games::holdem::EXACT_RAISE | chips as u32
            }
            (None, Some(chips)) => {
                return Err(Error::Invalid {
                    what: "raise_to",
                    reason: format!("{} has no raise-to amounts (got {chips})", self.game),
                })
            }
            _ => {
                return Err(Error::Invalid {
                    what: "action",
                    reason: "give exactly one of \"action\" or \"raise_to\"".into(),
                })
            }
        };
        let n = self.env.num_actions();
        let masked = (action as usize) < n && self.env.legal_mask()[action as usize] == 0;
        if masked {
            let label = view::action_label(&*self.env, action);
            return Err(Error::Invalid {
                what: "action",
                reason: format!("{label} is not legal now; legal: {}", self.legal_text()),
            });
        }
        self.apply(action, "you".into())?;
        self.run_bots()
    }

    /// The legal moves in words ("draw, play 9♥"; their ids are the table's `legal`).
    fn legal_text(&self) -> String {
        self.legal_ids()
            .iter()
            .map(|&a| view::action_label(&*self.env, a))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn legal_ids(&self) -> Vec<u32> {
        if self.done() {
            return Vec::new();
        }
        (0..self.env.num_actions() as u32)
            .filter(|&a| self.env.legal_mask()[a as usize] != 0)
            .collect()
    }

    /// What the page shows (`log_from`: the first log entry to include; `frames`: with the
    /// table after each move of the last request).
    pub fn to_json(&self, id: &str, log_from: usize, frames: bool) -> Value {
        let done = self.done();
        let info = self.env.info();
        let legal: Vec<Value> = if !done && self.to_act() == self.seat {
            self.legal_ids()
                .into_iter()
                .map(|a| json!({ "action": a, "label": view::action_label(&*self.env, a) }))
                .collect()
        } else {
            Vec::new()
        };
        let log: Vec<Value> = self
            .log
            .iter()
            .enumerate()
            .skip(log_from)
            .map(|(i, m)| json!({ "n": i, "seat": m.seat, "by": m.by, "action": m.action, "label": m.label }))
            .collect();
        let result = done.then(|| {
            // The game's own outcome (ties kept as ties); the totals' leaders for a game
            // that says nothing of its end.
            let outcome = view::outcome(&*self.env)
                .unwrap_or_else(|| Outcome::by_results(self.totals.clone(), true));
            let mut r = outcome.to_json();
            r["scores"] = json!(self.totals);
            r["terminated"] = json!(self.env.terminated()[0]);
            r["truncated"] = json!(self.env.truncated()[0]);
            r
        });
        json!({
            "id": id, "game": self.game, "title": info.title, "options": self.options,
            "seat": self.seat, "num_players": self.env.num_players(), "seed": self.seed,
            "bots": self.bots, "to_act": if done { Value::Null } else { json!(self.to_act()) },
            "finished": done, "legal": legal, "log": log, "log_len": self.log.len(),
            "totals": self.totals, "reward_unit": info.reward_unit,
            "result_unit": info.result_unit, "result": result,
            "view": view::view(&*self.env, self.seat, done),
            "frames": if frames {
                json!(self.frames.iter().map(|(n, v)| json!({ "n": n, "view": v })).collect::<Vec<_>>())
            } else {
                Value::Null
            },
        })
    }
}

/// Every table, by id, with a cap and an idle expiry.
pub struct Tables {
    map: Mutex<HashMap<String, Arc<Mutex<Table>>>>,
    /// The policy files named at start-up (`cardvec serve --policy NAME=PATH`).
    pub policies: Vec<NamedPolicy>,
    counter: Mutex<u64>,
    /// Most tables kept at once.
    pub cap: usize,
    /// A table not used for this long is dropped.
    pub idle: Duration,
}

/// Why a table could not be had.
pub enum TableError {
    /// No table has this id.
    NotFound(String),
    /// The cap is reached.
    Full(usize),
}

/// A policy file the server was started with: people play it by its name.
#[derive(Clone, Debug)]
pub struct NamedPolicy {
    /// The bot name the page shows and a table request gives.
    pub name: String,
    /// The file.
    pub path: std::path::PathBuf,
    /// The registry id of the game it was trained on.
    pub game: &'static str,
}

impl NamedPolicy {
    /// `NAME=PATH` of `--policy`: the file read and checked in itself
    /// ([`cardvec::agents::policy_file::PolicyFile::read`]), its game registered, the name
    /// a word (letters, digits, `-`, `_`, `.`) that is not one of the game's own bots.
    pub fn parse(spec: &str) -> Result<NamedPolicy> {
        let invalid = |reason: String| Error::Invalid {
            what: "--policy",
            reason,
        };
        let Some((name, path)) = spec.split_once('=') else {
            return Err(invalid(format!("{spec:?}: expected NAME=PATH")));
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(invalid(format!(
                "{name:?}: a name is letters, digits, '-', '_' and '.'"
            )));
        }
        let path = std::path::PathBuf::from(path);
        let file = cardvec::agents::policy_file::PolicyFile::read(&path)?;
        let info = registry::info(&file.meta.game)
            .map_err(|e| invalid(format!("{}: {e}", path.display())))?;
        if info.bots.contains(&name) {
            return Err(invalid(format!(
                "{name:?} is one of {}'s own bots: give the policy another name",
                info.id
            )));
        }
        Ok(NamedPolicy {
            name: name.to_string(),
            path,
            game: info.id,
        })
    }
}

/// The bot name a table plays for `name`: a policy named at start-up becomes
/// `policy:<path>`; a `policy:` name given by a request is refused (the server reads only
/// the files it was started with); any other name is the game's or a family's.
pub fn resolve_name(policies: &[NamedPolicy], game: &str, name: &str) -> Result<String> {
    if let Some(p) = policies.iter().find(|p| p.name == name && p.game == game) {
        return Ok(format!("policy:{}", p.path.display()));
    }
    if name == "policy" || name.starts_with("policy:") {
        let named: Vec<&str> = policies
            .iter()
            .filter(|p| p.game == game)
            .map(|p| p.name.as_str())
            .collect();
        return Err(Error::Invalid {
            what: "bot",
            reason: format!(
                "the web table plays the policy files named at start-up (cardvec serve \
                 --policy NAME=PATH), by name; {game} has {}",
                if named.is_empty() {
                    "none".to_string()
                } else {
                    named.join(", ")
                }
            ),
        });
    }
    Ok(name.to_string())
}

impl Tables {
    /// An empty set of tables.
    pub fn new(cap: usize, idle: Duration) -> Tables {
        let salt = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Tables {
            map: Mutex::new(HashMap::new()),
            policies: Vec::new(),
            counter: Mutex::new(salt),
            cap,
            idle,
        }
    }

    fn next_id(&self) -> String {
        let mut c = self.counter.lock().unwrap_or_else(|e| e.into_inner());
        *c = c.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *c;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("{:016x}", z ^ (z >> 31))
    }

    /// Keeps `table` under a new id (dropping idle tables first); `Full` at the cap.
    pub fn insert(&self, table: Table) -> std::result::Result<String, TableError> {
        let id = self.next_id();
        if self.len() >= self.cap {
            self.sweep();
        }
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.cap {
            return Err(TableError::Full(self.cap));
        }
        map.insert(id.clone(), Arc::new(Mutex::new(table)));
        Ok(id)
    }

    /// Drops the tables unused for longer than `idle` (a table busy right now is kept);
    /// returns how many.
    pub fn sweep(&self) -> usize {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let before = map.len();
        let idle = self.idle;
        map.retain(|_, t| match t.try_lock() {
            Ok(t) => t.last_used.elapsed() < idle,
            Err(_) => true,
        });
        before - map.len()
    }

    /// The table `id`.
    pub fn get(&self, id: &str) -> std::result::Result<Arc<Mutex<Table>>, TableError> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(id)
            .cloned()
            .ok_or_else(|| TableError::NotFound(id.to_string()))
    }

    /// Drops table `id`; whether it was there.
    pub fn remove(&self, id: &str) -> bool {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(id).is_some()
    }

    /// Number of tables kept.
    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}
