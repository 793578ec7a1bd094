//! The final margin of a proven result: how many seeds the winner ends
//! ahead by when the principal variation is played out.

use crate::tb::Tablebase;
use crate::tb::board::relative;
use crate::tb::probe::board_value;
use crate::{Game, Move, Variant};

/// The final difference in stores (side to move at the root of `game`
/// minus its opponent, in seeds) when `pv` is played from the current
/// position of `game`, or `None` when the line does not settle it.
///
/// The moves are played on a clone of the game, with every rule (captures,
/// sweeps, repetitions, the move limit). If the game ends within the line,
/// the margin is the final stores' difference. Otherwise, if `tables` give
/// the position where the line stops an exact entry (RULES.md §4: Abapa,
/// the mover ends with its store plus gM and the opponent with its store
/// plus gN when gM + gN is the seeds on the board; Awari, the entry is the
/// final difference of the seeds on the board), the margin follows from
/// it. A move that cannot be played, tables of other rules, a level that is
/// not loaded or an inexact entry give `None`.
pub fn proven_margin(game: &Game, pv: &[Move], tables: Option<&Tablebase>) -> Option<i32> {
    let root = game.position().side_to_move();
    let mut line = game.clone();
    for &mv in pv {
        if line.outcome().is_some() {
            break;
        }
        line.play(mv).ok()?;
    }
    let pos = *line.position();
    let stores = |side| i32::from(pos.store(side));
    if line.outcome().is_some() {
        return Some(stores(root) - stores(root.opponent()));
    }
    let tb = tables?;
    let variant = game.rules().variant;
    if tb.variant() != variant {
        return None;
    }
    let n = pos.seeds_on_board() as usize;
    if !tb.has_level(n) {
        return None;
    }
    let value = board_value(tb, &relative(&pos), n).ok()?;
    let me = pos.side_to_move();
    let mover_margin = match variant {
        Variant::Awari => stores(me) - stores(me.opponent()) + i32::from(value.score()),
        // (No table is built for capture-to-win: the check above
        // returns first.)
        Variant::Abapa
        | Variant::GrandSlamForbidden
        | Variant::CaptureAndEnd
        | Variant::CaptureToWin => {
            if !value.is_exact(n as u8) {
                return None;
            }
            (stores(me) + i32::from(value.mover))
                - (stores(me.opponent()) + i32::from(value.opponent))
        }
    };
    Some(if me == root {
        mover_margin
    } else {
        -mover_margin
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tb::{BuildOptions, build};
    use crate::{Position, Rules, parse_moves};

    fn game(fen: &str) -> Game {
        Game::new(fen.parse::<Position>().unwrap(), Rules::default())
    }

    fn tables(max: usize) -> (tempfile::TempDir, Tablebase) {
        let dir = tempfile::tempdir().unwrap();
        let opts = BuildOptions {
            dir: dir.path(),
            variant: Variant::Abapa,
            max_seeds: max,
            progress: false,
            format: Default::default(),
            recheck: crate::tb::Recheck::All,
        };
        build(&opts, |_| {}).unwrap();
        let tb = Tablebase::open(dir.path(), Variant::Abapa).unwrap();
        (dir, tb)
    }

    #[test]
    fn a_game_that_ends_in_the_line_gives_its_final_stores() {
        // F sows into a (now 2) and captures it: South reaches 26 and wins
        // 26-21 with one seed left on the board; moves after the end are
        // ignored.
        let g = game("0-0-0-0-0-1-1-0-0-0-0-1-24-21-S");
        assert_eq!(proven_margin(&g, &parse_moves("F").unwrap(), None), Some(5));
        assert_eq!(
            proven_margin(&g, &parse_moves("Ff").unwrap(), None),
            Some(5)
        );
        // The mirror image: North's f captures A and wins 26-21.
        let g = game("1-0-0-0-0-1-0-0-0-0-0-1-21-24-N");
        assert_eq!(proven_margin(&g, &parse_moves("f").unwrap(), None), Some(5));
    }

    #[test]
    fn an_exact_table_entry_gives_the_margin_of_best_play() {
        // North's only move f sows into A, a grand slam that captures
        // nothing; South cannot feed and takes the two seeds: 25-23.
        let g = game("1-0-0-0-0-0-0-0-0-0-0-1-23-23-N");
        let played = proven_margin(&g, &parse_moves("f").unwrap(), None);
        assert_eq!(played, Some(-2));
        let (_dir, tb) = tables(4);
        // The line stops at once: the table says the same.
        assert_eq!(proven_margin(&g, &[], Some(&tb)), played);
        assert_eq!(proven_margin(&g, &[], None), None);
    }

    #[test]
    fn an_unsettled_line_has_no_margin() {
        let g = game("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
        let (_dir, tb) = tables(2);
        // 48 seeds: no table, and the game goes on.
        assert_eq!(
            proven_margin(&g, &parse_moves("FfBe").unwrap(), Some(&tb)),
            None
        );
        // A move that cannot be played.
        assert_eq!(proven_margin(&g, &parse_moves("a").unwrap(), None), None);
    }
}
