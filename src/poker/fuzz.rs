//! The fuzz check of the card and range parsers (fuzz target `cards`; `tests/fuzz_corpus.rs`
//! replays its corpus).

use super::cards::{card_set, format_set, parse_cards, Card};
use super::range::Range;

/// Reads any bytes (as text, invalid UTF-8 replaced) as one card, a list of cards and a
/// range: no parser may panic, and whatever parses must print and parse back to the same
/// value (a card, a list of distinct cards, a set written by [`format_set`], a non-empty
/// range of at most 1,326 distinct combos in order, each combo and the whole range written
/// combo by combo). `Err` describes the first broken rule.
pub fn fuzz_check_cards(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    if let Ok(card) = text.parse::<Card>() {
        let back = card.to_string().parse::<Card>();
        if back.as_ref().ok() != Some(&card) {
            return Err(format!("card {text:?} -> {card} -> {back:?}"));
        }
    }
    if let Ok(cards) = parse_cards(&text) {
        let set = card_set(&cards).map_err(|e| format!("cards {text:?}: {e}"))?;
        let written: Vec<String> = cards.iter().map(Card::to_string).collect();
        for sep in ["", " ", ","] {
            let back = parse_cards(&written.join(sep));
            if back.as_ref().ok() != Some(&cards) {
                return Err(format!("cards {text:?} -> {written:?} -> {back:?}"));
            }
        }
        let sorted = format_set(set);
        let back = parse_cards(&sorted).and_then(|c| card_set(&c));
        if back.as_ref().ok() != Some(&set) {
            return Err(format!("cards {text:?} -> set {sorted:?} -> {back:?}"));
        }
    }
    if let Ok(range) = Range::parse(&text) {
        let combos = range.combos();
        if combos.is_empty() || combos.len() > 1326 {
            return Err(format!("range {text:?}: {} combos", combos.len()));
        }
        if combos.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("range {text:?}: combos out of order or repeated"));
        }
        let mut written = Vec::with_capacity(combos.len());
        for &h in combos {
            let one = h.to_string();
            let back = Range::parse(&one);
            if back.as_ref().ok() != Some(&Range::single(h)) {
                return Err(format!("range {text:?}: combo {one} -> {back:?}"));
            }
            written.push(one);
        }
        let back = Range::parse(&written.join(","));
        if back.as_ref().ok() != Some(&range) {
            return Err(format!(
                "range {text:?} written combo by combo reads differently"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fuzz_check_passes_on_the_notations() {
        for text in [
            "As",
            "♠A",
            "10h",
            "AsKd",
            "As Kd, 2c",
            "QQ+",
            "AKs",
            "KQo",
            "AK",
            "A5s-A2s",
            "99-66",
            "random",
            "*",
            "AsKs, QQ+",
            "",
            "Xx",
            "AsAs",
            "\u{fffd}",
        ] {
            fuzz_check_cards(text.as_bytes()).unwrap();
        }
        fuzz_check_cards(b"\xff\xfeAs").unwrap();
    }
}
