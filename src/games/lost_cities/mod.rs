//! Lost Cities, classic two-player round, as the seed `001_…` defines it (see
//! `docs/lost-cities.md`): card and action encodings, the fast lane engine, the reference
//! engine, observation encoder and bots.

pub(crate) mod bots;
pub(crate) mod checks;
mod determinize;
pub(crate) mod fast;
pub(crate) mod reference;
mod words;

pub use fast::{board_score, column_score, score, LostCitiesState};
pub use reference::Reference;
pub use words::{card_code, parse_card_code};

use crate::core::spec::{GameInfo, GameSpec, OptionKind, OptionSpec, OptionValue, Options};
use crate::core::{Bot, Error, Result};

/// Where the 7 × 60 one-hot block of an observation puts card `card`'s channel `channel`
/// (the option `obs_layout`; the 34 scalars follow at `420..454` in both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObsLayout {
    /// `obs[card * 7 + channel]`: the seed's `60 cards x 7 one-hot channels` read as a
    /// `[60, 7]` array (the default).
    #[default]
    CardMajor,
    /// `obs[channel * 60 + card]`: seven rows of 60 cards.
    ChannelMajor,
}

/// The words of the `obs_layout` option, in [`ObsLayout`] order.
pub const OBS_LAYOUT_WORDS: &[&str] = &["card-major", "channel-major"];

impl ObsLayout {
    /// The option word (`"card-major"` or `"channel-major"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ObsLayout::CardMajor => "card-major",
            ObsLayout::ChannelMajor => "channel-major",
        }
    }

    /// Parses an option word.
    pub fn parse(word: &str) -> Result<ObsLayout> {
        match word {
            "card-major" => Ok(ObsLayout::CardMajor),
            "channel-major" => Ok(ObsLayout::ChannelMajor),
            _ => Err(Error::Invalid {
                what: "obs_layout",
                reason: format!("must be card-major or channel-major, not {word:?}"),
            }),
        }
    }

    /// The index of `(card, channel)` in an observation row.
    #[inline]
    pub const fn index(self, card: usize, channel: usize) -> usize {
        match self {
            ObsLayout::CardMajor => card * N_CHANNELS + channel,
            ObsLayout::ChannelMajor => channel * DECK_SIZE + card,
        }
    }
}

/// Lost Cities, the value the core batches: the rules have no options, the observation
/// one: its layout ([`ObsLayout`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LostCities {
    layout: ObsLayout,
}

impl LostCities {
    /// The game with observations in `layout`.
    pub const fn new(layout: ObsLayout) -> LostCities {
        LostCities { layout }
    }

    /// The observation layout.
    pub const fn layout(&self) -> ObsLayout {
        self.layout
    }
}

impl GameSpec for LostCities {
    const INFO: GameInfo = GameInfo {
        id: "lost-cities",
        title: "Lost Cities",
        summary: "the classic two-player round, as the seed's JAX engine defines it",
        docs: "docs/lost-cities.md",
        python_class: "LostCities",
        num_players: (NUM_PLAYERS, NUM_PLAYERS),
        options: &[OptionSpec {
            name: "obs_layout",
            kind: OptionKind::Choice(OBS_LAYOUT_WORDS),
            default: "card-major",
            doc: "card-major: obs[card * 7 + channel] (the seed's [60, 7]); \
                  channel-major: obs[channel * 60 + card]",
        }],
        bots: bots::BOT_NAMES,
        configurations: &["", "obs_layout=channel-major"],
        match_bots: &["safe-heuristic", "random"],
        match_players: &[],
        match_options: "",
        reward_unit: "points",
        result_unit: "points",
        engine_options: &["obs_layout"],
        reward_report: (1.0, "points"),
        oracle: "",
    };

    fn configure(options: &Options) -> Result<Self> {
        Ok(LostCities::new(ObsLayout::parse(&options.choice("obs_layout")?)?))
    }

    fn options(&self) -> Options {
        Options::new(
            Self::INFO.options,
            [(
                "obs_layout".into(),
                OptionValue::Text(self.layout.as_str().into()),
            )],
        )
        .expect("a configuration's own options are valid")
    }

    fn zero_sum(&self) -> bool {
        true
    }

    fn determinizer() -> Option<crate::core::DeterminizeFn<Self>> {
        Some(<Self as crate::core::Determinize>::determinize)
    }

    fn bot(&self, name: &str) -> Result<Box<dyn Bot<Self>>> {
        bots::by_name(name)
    }

    /// One key per (card, placement, draw source): `card_id * 12 + place_type * 6 +
    /// draw_source`, 720 keys.
    fn action_key_count(&self) -> usize {
        DECK_SIZE * 12
    }

    /// Action `slot * 12 + rest` has the key `card * 12 + rest`, `card` the hand's card in
    /// that slot (the hand in card order). A slot the hand does not fill (never at a
    /// decision) reads as card 0.
    fn action_keys(&self, state: &LostCitiesState, keys: &mut [u32]) {
        let hand = state.hands[state.to_act as usize & 1];
        let mut cards = crate::core::CardSet64(hand).iter();
        for slot in keys.chunks_mut(12) {
            let card = u32::from(cards.next().unwrap_or(0));
            for (rest, k) in slot.iter_mut().enumerate() {
                *k = card * 12 + rest as u32;
            }
        }
    }
}

/// Number of players.
pub const NUM_PLAYERS: usize = 2;
/// Number of cards in the deck.
pub const DECK_SIZE: usize = 60;
/// Cards per colour (three handshakes, numbers 2..10).
pub const SLOTS_PER_COLOR: usize = 12;
/// Number of colours.
pub const N_COLORS: usize = 5;
/// Cards in each hand.
pub const HAND_SIZE: usize = 8;
/// Cards in the deck after the deal.
pub const DECK_AFTER_DEAL: usize = DECK_SIZE - 2 * HAND_SIZE;
/// Size of the action space.
pub const N_ACTIONS: usize = 96;
/// Length of an observation row.
pub const OBS_DIM: usize = 454;
/// Observation one-hot channels.
pub const N_CHANNELS: usize = 7;
/// Plies after which the round is cut off (and scored).
pub const MAX_STEPS: u16 = 400;
/// Largest board score of one player, the score-difference normaliser.
pub const MAX_BOARD_SCORE: i32 = 780;

/// The colour of a card id.
#[inline]
pub const fn color_of(card: u8) -> u8 {
    card / SLOTS_PER_COLOR as u8
}

/// The slot of a card id within its colour (0..2 handshakes, 3..11 numbers).
#[inline]
pub const fn slot_of(card: u8) -> u8 {
    card % SLOTS_PER_COLOR as u8
}

/// Whether a card id is a handshake.
#[inline]
pub const fn is_handshake(card: u8) -> bool {
    slot_of(card) < 3
}

/// The number rank of a card (2..10), or 0 for a handshake.
#[inline]
pub const fn rank_of(card: u8) -> u8 {
    if is_handshake(card) {
        0
    } else {
        slot_of(card) - 1
    }
}

/// Builds an action id from its parts (no range check).
#[inline]
pub const fn action_id(hand_slot: u32, discard: bool, draw_source: u32) -> u32 {
    hand_slot * 12 + if discard { 6 } else { 0 } + draw_source
}

/// Splits an action id `< 96` into `(hand_slot, discard, draw_source)`.
#[inline]
pub const fn decode_action(action: u32) -> (u32, bool, u32) {
    (action / 12, (action % 12) >= 6, action % 6)
}

/// A readable name for a card id, e.g. `"c2:H1"` (colour 2, first handshake) or `"c0:7"`.
pub fn card_name(card: u8) -> String {
    if is_handshake(card) {
        format!("c{}:H{}", color_of(card), slot_of(card) + 1)
    } else {
        format!("c{}:{}", color_of(card), rank_of(card))
    }
}
