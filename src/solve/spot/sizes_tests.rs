//! Bet sizes per player and street from their text form, and donk sizes: OOP leading on
//! the turn or river into the previous street's last aggressor.

use super::*;

fn sizes(specs: SizeSpecs<'_>) -> Result<TreeConfig> {
    TreeConfig::from_specs(&specs)
}

fn specs<'a>(bets: &'a str, raises: &'a str) -> SizeSpecs<'a> {
    SizeSpecs {
        bets,
        raises,
        ..SizeSpecs::default()
    }
}

/// A turn spot: pot 100, 1000 behind, so no all-in is added.
fn turn_tree(specs: SizeSpecs<'_>) -> SpotTree {
    let tree = sizes(specs).unwrap();
    let spot = Spot::parse("Td9d6hQc", 100, 1000, "AA,KQs,76s", "JJ,AQs,T9s", tree).unwrap();
    SpotTree::build(&spot, DEFAULT_MAX_NODES).unwrap()
}

/// The actions at the node of `line`.
fn actions(tree: &SpotTree, line: &str) -> Vec<String> {
    let n = tree
        .find(line)
        .unwrap_or_else(|| panic!("no node {line:?}"));
    tree.children(n)
        .iter()
        .map(|&c| tree.nodes()[c as usize].action.to_string())
        .collect()
}

#[test]
fn a_plain_list_is_every_street_and_parts_name_streets() {
    let t = sizes(specs("60%,a", "2.5x")).unwrap();
    assert_eq!(t, TreeConfig::uniform("60%,a", "2.5x").unwrap());
    let t = sizes(specs("flop:33%,75%;turn:60%;river:75%,a", "river:3x")).unwrap();
    for p in 0..2 {
        assert_eq!(t.sizes[p][0].bets, [BetSize::Pot(0.33), BetSize::Pot(0.75)]);
        assert_eq!(t.sizes[p][1].bets, [BetSize::Pot(0.6)]);
        assert_eq!(t.sizes[p][2].bets, [BetSize::Pot(0.75), BetSize::AllIn]);
        assert!(t.sizes[p][0].raises.is_empty() && t.sizes[p][1].raises.is_empty());
        assert_eq!(t.sizes[p][2].raises, [BetSize::Multiple(3.0)]);
    }
    assert_eq!(t.donk, [None, None, None]);
    // Per player over the common sizes: streets not named keep them.
    let t = sizes(SizeSpecs {
        oop_bets: Some("river:e"),
        ip_raises: Some("a"),
        ..specs("50%", "3x")
    })
    .unwrap();
    assert_eq!(t.sizes[0][1].bets, [BetSize::Pot(0.5)]);
    assert_eq!(t.sizes[0][2].bets, [BetSize::Geometric]);
    assert_eq!(t.sizes[1][2].bets, [BetSize::Pot(0.5)]);
    assert_eq!(t.sizes[0][0].raises, [BetSize::Multiple(3.0)]);
    assert_eq!(t.sizes[1][0].raises, [BetSize::AllIn]);
    // Donk: a list is the turn and the river; `turn:` alone is no donk bet there.
    let t = sizes(SizeSpecs {
        donk: Some("33%"),
        ..specs("60%", "")
    })
    .unwrap();
    let d = Some(vec![BetSize::Pot(0.33)]);
    assert_eq!(t.donk, [None, d.clone(), d]);
    let t = sizes(SizeSpecs {
        donk: Some("turn:;river:50%,a"),
        ..specs("60%", "")
    })
    .unwrap();
    assert_eq!(
        t.donk,
        [
            None,
            Some(vec![]),
            Some(vec![BetSize::Pot(0.5), BetSize::AllIn])
        ]
    );
}

#[test]
fn bad_size_specs_are_refused_naming_the_option() {
    let refused = |s: SizeSpecs<'_>| sizes(s).unwrap_err().to_string();
    let e = refused(specs("flop:33%;street:50%", ""));
    assert!(
        e.contains("--bets") && e.contains("unknown street \"street\""),
        "{e}"
    );
    let e = refused(specs("turn:33%;turn:50%", ""));
    assert!(e.contains("turn is named twice"), "{e}");
    let e = refused(specs("flop:33%;50%", ""));
    assert!(e.contains("has no street"), "{e}");
    let e = refused(specs("60%", "river:2.5x,huge"));
    assert!(e.contains("--raises") && e.contains("huge"), "{e}");
    let e = refused(SizeSpecs {
        oop_bets: Some("turn:2.5x"),
        ..specs("60%", "")
    });
    assert!(e.contains("--oop-bets") && e.contains("raise size"), "{e}");
    let e = refused(SizeSpecs {
        ip_raises: Some("0%"),
        ..specs("60%", "")
    });
    assert!(e.contains("--ip-raises") && e.contains("(0, 10000]"), "{e}");
    for donk in ["flop:33%", "turn:50%;flop:33%"] {
        let e = refused(SizeSpecs {
            donk: Some(donk),
            ..specs("60%", "")
        });
        assert!(e.contains("--donk") && e.contains("flop"), "{e}");
    }
    for (donk, says) in [
        ("3x", "raise size"),
        ("river:3x", "raise size"),
        ("river:50%;river:60%", "named twice"),
        ("turn:50%;60%", "has no street"),
    ] {
        let e = refused(SizeSpecs {
            donk: Some(donk),
            ..specs("60%", "")
        });
        assert!(e.contains("--donk") && e.contains(says), "{donk}: {e}");
    }
    // A TreeConfig built by hand is checked too.
    let mut t = TreeConfig::uniform("60%", "").unwrap();
    t.donk[0] = Some(vec![BetSize::Pot(0.5)]);
    assert!(t.check().unwrap_err().to_string().contains("flop"));
    t.donk = [None, Some(vec![BetSize::Multiple(2.0)]), None];
    assert!(t.check().is_err());
}

/// Donk sizes apply exactly where OOP leads into IP, the last to bet or raise on the
/// previous street; elsewhere OOP's own bets apply.
#[test]
fn donk_sizes_apply_where_oop_leads_into_the_previous_aggressor() {
    let donk = turn_tree(SizeSpecs {
        donk: Some("33%"),
        ..specs("60%", "3x")
    });
    let plain = turn_tree(specs("60%", "3x"));
    // Turn: no previous street in the spot, OOP's bets.
    assert_eq!(actions(&donk, ""), ["check", "bet:60"]);
    // IP bet the turn (60), OOP called: pot 220, OOP leads the river with 33% = 73.
    assert_eq!(actions(&donk, "check,bet:60,call,2c"), ["check", "bet:73"]);
    assert_eq!(
        actions(&plain, "check,bet:60,call,2c"),
        ["check", "bet:132"]
    );
    // IP checked back, or OOP was the aggressor: OOP's bets.
    assert_eq!(actions(&donk, "check,check,2c"), ["check", "bet:60"]);
    assert_eq!(actions(&donk, "bet:60,call,2c"), ["check", "bet:132"]);
    // OOP bet, IP raised (to 180), OOP called: IP was the last aggressor (pot 460: 33% is
    // 152).
    assert_eq!(
        actions(&donk, "bet:60,raise:180,call,2c"),
        ["check", "bet:152"]
    );
    // IP's bets on the river do not change.
    assert_eq!(
        actions(&donk, "check,bet:60,call,2c,check"),
        ["check", "bet:132"]
    );
    // `river:` alone: OOP cannot lead into the turn's aggressor.
    let none = turn_tree(SizeSpecs {
        donk: Some("river:"),
        ..specs("60%", "3x")
    });
    assert_eq!(actions(&none, "check,bet:60,call,2c"), ["check"]);
    assert_eq!(actions(&none, "check,check,2c"), ["check", "bet:60"]);
    assert!(none.nodes().len() < plain.nodes().len());
}

/// Per-player and per-street sizes reach the tree.
#[test]
fn per_player_and_per_street_sizes_shape_the_tree() {
    let t = turn_tree(SizeSpecs {
        oop_bets: Some("50%"),
        ip_bets: Some("turn:75%;river:100%"),
        ip_raises: Some("turn:"),
        ..specs("60%", "3x")
    });
    assert_eq!(actions(&t, ""), ["check", "bet:50"]);
    assert_eq!(actions(&t, "check"), ["check", "bet:75"]);
    // IP has no turn raise; OOP raises 3x.
    assert_eq!(actions(&t, "bet:50"), ["fold", "call"]);
    assert_eq!(actions(&t, "check,bet:75"), ["fold", "call", "raise:225"]);
    assert_eq!(actions(&t, "check,check,2c,check"), ["check", "bet:100"]);
}
