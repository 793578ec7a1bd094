//! `oware solve` with the 25-seed stop in play (the race to 25): who wins
//! the position and each first move, by proof search over the three
//! outcomes, closing lines at the race tables when given.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;

use oware::mancala::race::solve::{RaceMove, RaceSearch};
use oware::mancala::race::{Outcome, RaceRules, RaceTables};
use oware::mancala::solve::Table;
use oware::mancala::{MancalaPosition, MancalaRules, STOP_SEEDS};
use oware::{Move, Side};

use super::output;
use super::solve::SolveArgs;

/// A long solve says how many nodes it has searched this often.
const HEARTBEAT: Duration = Duration::from_secs(60);

/// The most seeds a race level built on one 24 GB machine holds: level 30
/// is held a byte a board (3.2 GB) while it is built; level 36 (17.4 GB)
/// does not fit beside the levels it reads.
const RACE_LEVELS_HERE: usize = 30;

/// Race levels the hint asks for above the fewest seeds a board of the game
/// holds: levels 12..22 for the 5-seed start, the manual's example; more
/// levels close more lines and make the solve faster.
const RACE_LEVELS_ABOVE: usize = 10;

/// The fewest seeds a board of a game of `total` seeds holds while both
/// stores are under the stop: race levels below it hold no position of
/// the game.
const fn lowest_board(total: usize) -> usize {
    total.saturating_sub(2 * (STOP_SEEDS as usize - 1))
}

/// Whether race levels 0..=`level` hold no board of a game of `total` seeds.
const fn closes_no_line(level: usize, total: usize) -> bool {
    level < lowest_board(total)
}

/// What builds race tables that serve `pos`, or why no build here does.
fn race_build_hint(rules: MancalaRules, pos: &MancalaPosition, dir: &std::path::Path) -> String {
    let total = pos.total_seeds() as usize;
    let Some(k) = super::solve::start_of(pos) else {
        return "race tables serve a start's total only: 36, 48, 60 or 84 seeds".to_string();
    };
    let first = lowest_board(total);
    if first > RACE_LEVELS_HERE {
        return format!(
            "the {k}-seed start's race tables matter from level {first} up, and level 36 alone is 17.4 G boards at a byte a board, beyond a 24 GB machine; see the manual's chapter on Mancala"
        );
    }
    let capture = if rules.empty_capture {
        " --empty-capture"
    } else {
        ""
    };
    format!(
        "`oware build --rules mancala{capture} --race --start-seeds {k} --max-seeds {} --db {}` builds them",
        (first + RACE_LEVELS_ABOVE).min(RACE_LEVELS_HERE),
        dir.display()
    )
}

/// Solves `pos` under `rules` with the stop in play.
pub fn run(
    args: &SolveArgs,
    rules: MancalaRules,
    pos: &MancalaPosition,
    pool: &rayon::ThreadPool,
) -> Result<()> {
    if let Some(side) = [Side::South, Side::North]
        .into_iter()
        .find(|&side| pos.store(side) >= STOP_SEEDS)
    {
        bail!(
            "{pos}: {side}'s store holds {} seeds, so with the 25-seed stop the game is already over (give --no-stop for the final store difference)",
            pos.store(side)
        );
    }
    let total = pos.total_seeds();
    let race = RaceRules {
        empty_capture: rules.empty_capture,
        total: total as u8,
    };
    let tables = match args.db() {
        None => None,
        Some(dir) => {
            let (t, rejected) = RaceTables::open_for_search(dir, race, args.tb_limit())
                .context("cannot open the race tables")?;
            for e in &rejected {
                output::note(format_args!("warning: table left closed: {e}"));
            }
            if t.complete_up_to().is_none() {
                bail!(
                    "{}: no race tables for {total} seeds ({})",
                    dir.display(),
                    race_build_hint(rules, pos, dir)
                );
            }
            Some(t)
        }
    };
    let table = Table::new(args.hash() as usize);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let deadline = args
        .max_time()
        .map(|s| started + Duration::from_secs_f64(s));
    let search = RaceSearch::new(
        race,
        tables.as_ref(),
        args.tb_limit(),
        &table,
        &stop,
        deadline,
    );
    let described = tables
        .as_ref()
        .map(|_| format!("race levels 0..={} ({total} seeds)", search.table_level()));
    if let Some(d) = &described
        && !args.quiet()
    {
        output::note(format_args!("tables: {d}"));
    }
    if let Some(dir) = args.db()
        && tables.is_some()
        && closes_no_line(search.table_level(), total as usize)
    {
        output::note(format_args!(
            "warning: the race tables stop at level {}, below the {} seeds this game's boards hold while both stores are under {STOP_SEEDS}: they close no line ({})",
            search.table_level(),
            lowest_board(total as usize),
            race_build_hint(rules, pos, dir)
        ));
    }
    let me = pos.side_to_move();
    let quiet = args.quiet();
    let done = AtomicBool::new(false);
    let solution = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut next = HEARTBEAT;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::Relaxed);
                }
                if started.elapsed() >= next {
                    next += HEARTBEAT;
                    if !quiet {
                        output::note(format_args!(
                            "searching: {} nodes, {:.0} s",
                            search.nodes(),
                            started.elapsed().as_secs_f64()
                        ));
                    }
                }
            }
        });
        let report = |m: &RaceMove| {
            if !quiet {
                output::note(format_args!(
                    "move {}: {} ({} nodes, {:.1} s)",
                    Move::of(me, usize::from(m.house)),
                    bounds_text(me, m.lower, m.upper),
                    search.nodes(),
                    started.elapsed().as_secs_f64()
                ));
            }
        };
        let s = pool.install(|| search.solve(pos, args.value_only(), report));
        done.store(true, Ordering::Relaxed);
        s
    });
    if args.json() {
        let moves: Vec<_> = solution
            .moves
            .iter()
            .map(|m| {
                json!({
                    "move": Move::of(me, usize::from(m.house)).to_string(),
                    "another_go": m.again,
                    "lower": m.lower.name(),
                    "upper": m.upper.name(),
                    "result": bounds_text(me, m.lower, m.upper),
                })
            })
            .collect();
        output::line(json!({
            "position": pos.to_string(),
            "rules": "mancala",
            "start_seeds": super::solve::start_of(pos),
            "capture": rules.capture_name(),
            "scoring": "race",
            "total": total,
            "to_move": me.letter().to_string(),
            "lower": solution.lower.name(),
            "upper": solution.upper.name(),
            "result": bounds_text(me, solution.lower, solution.upper),
            "moves": moves,
            "solved": !solution.stopped,
            "nodes": solution.nodes,
            "table_hits": solution.table_hits,
            "time_ms": solution.elapsed.as_millis() as u64,
            "tables": described,
        }));
        return Ok(());
    }
    output::line(format_args!("Position:  {pos}"));
    output::line(format_args!(
        "Rules:     {}",
        super::solve::rules_text(rules, pos)
    ));
    output::line(format_args!(
        "Scoring:   the race to 25 ({total} seeds): the 25-seed stop in play, the larger store wins"
    ));
    output::line(format_args!(
        "Value:     {} ({} for {me}, to move)",
        bounds_text(me, solution.lower, solution.upper),
        range_name(solution.lower, solution.upper)
    ));
    for m in &solution.moves {
        output::line(format_args!(
            "  {}  {:>9}  {}{}",
            Move::of(me, usize::from(m.house)),
            range_name(m.lower, m.upper),
            bounds_text(me, m.lower, m.upper),
            if m.again { "  (another go)" } else { "" }
        ));
    }
    let secs = solution.elapsed.as_secs_f64().max(1e-9);
    output::line(format_args!(
        "{} nodes in {secs:.2} s ({:.1} M nodes/s, {} threads), {} table hits, tables: {}{}",
        solution.nodes,
        solution.nodes as f64 / secs / 1e6,
        pool.current_num_threads(),
        solution.table_hits,
        described.as_deref().unwrap_or("none"),
        if solution.stopped {
            " — stopped by --max-time: bounds only"
        } else {
            ""
        }
    ));
    Ok(())
}

/// `win`, or `draw..win` while the bounds have not met.
fn range_name(lower: Outcome, upper: Outcome) -> String {
    if lower == upper {
        lower.name().to_string()
    } else {
        format!("{}..{}", lower.name(), upper.name())
    }
}

/// Who wins, from bounds for `me`.
fn bounds_text(me: Side, lower: Outcome, upper: Outcome) -> String {
    let them = me.opponent();
    match (lower, upper) {
        (Outcome::Win, _) => format!("{me} wins"),
        (Outcome::Draw, Outcome::Draw) => "draw".to_string(),
        (_, Outcome::Loss) => format!("{them} wins"),
        (Outcome::Draw, _) => format!("{me} draws or wins"),
        (Outcome::Loss, Outcome::Draw) => format!("{them} wins or draw"),
        (Outcome::Loss, Outcome::Win) => "not yet known".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn race_levels_close_lines_from_the_fewest_seeds_a_board_holds() {
        // (total, level, closes no line): both stores hold at most 24.
        for (total, level, none) in [
            (60, 11, true),
            (60, 12, false),
            (84, 35, true),
            (84, 36, false),
            (48, 0, false),
            (36, 0, false),
            (49, 0, true),
            (49, 1, false),
        ] {
            assert_eq!(
                closes_no_line(level, total),
                none,
                "{total} seeds, level {level}"
            );
        }
    }
}
