//! Asking an engine for a move in each position and judging its choice.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::arena::engine::{MoveRequest, PlayerFactory, TimeControl};
use crate::{Game, Move, Rules};

use super::verdict::{Judged, MoveVerdict};

/// The engine's answer in one position, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The position.
    pub position: String,
    /// Seeds on the board.
    pub seeds: u8,
    /// The mover wins by force and some move drops the win.
    pub win_at_stake: bool,
    /// The mover is not lost by force and some move walks into a loss.
    pub loss_avoidable: bool,
    /// The move chosen (none after a fault).
    #[serde(rename = "move", serialize_with = "letter")]
    pub mv: Option<Move>,
    /// What the move lost (nothing after a fault).
    #[serde(flatten)]
    pub verdict: MoveVerdict,
    /// How the engine failed to answer, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}

fn letter<S: serde::Serializer>(mv: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match mv {
        Some(mv) => s.serialize_str(&mv.to_string()),
        None => s.serialize_none(),
    }
}

/// How long to wait for an answer under `tc` before calling it a hang.
pub fn patience(tc: TimeControl) -> Duration {
    match tc {
        TimeControl::MoveTime(t) => t * 4 + Duration::from_secs(10),
        _ => Duration::from_secs(300),
    }
}

/// The answer of a player in `j`'s position (its history fresh: the
/// position is right after a capture), judged.
fn ask(player: &mut dyn crate::arena::engine::Player, j: &Judged, tc: TimeControl) -> Answer {
    let game = Game::new(j.position, Rules::ABAPA);
    let request = MoveRequest {
        tc,
        time_left: [Duration::ZERO; 2],
        increments: [Duration::ZERO; 2],
        wait: patience(tc),
    };
    let choice = player
        .new_game()
        .and_then(|()| player.choose(&game, &request))
        .map_err(|f| f.to_string())
        .and_then(|mv| {
            j.verdict(mv)
                .map(|v| (mv, v))
                .ok_or_else(|| format!("illegal move `{mv}`"))
        });
    if choice.is_err() {
        player.faulted();
    }
    let (mv, verdict, fault) = match choice {
        Ok((mv, v)) => (Some(mv), v, None),
        Err(why) => (None, MoveVerdict::default(), Some(why)),
    };
    Answer {
        position: j.position.to_string(),
        seeds: j.seeds(),
        win_at_stake: j.win_at_stake(),
        loss_avoidable: j.loss_avoidable(),
        mv,
        verdict,
        fault,
    }
}

/// Asks players made by `factory` for a move in each position under the
/// time control `tc`, `concurrency` positions at once (a player each), and
/// judges the answers; they come back in the positions' order. `progress`
/// is told after each answer. Fails only when a player cannot be made.
pub fn run(
    positions: &[Judged],
    factory: &dyn PlayerFactory,
    tc: TimeControl,
    concurrency: usize,
    progress: &(dyn Fn(&Answer) + Sync),
) -> Result<Vec<Answer>, String> {
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<Answer>>> = Mutex::new(vec![None; positions.len()]);
    let workers = concurrency.clamp(1, positions.len().max(1));
    let mut players = Vec::with_capacity(workers);
    for _ in 0..workers {
        players.push(factory.make()?);
    }
    std::thread::scope(|scope| {
        for mut player in players {
            let (next, answers) = (&next, &answers);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(j) = positions.get(i) else { break };
                    let answer = ask(player.as_mut(), j, tc);
                    progress(&answer);
                    if let Ok(mut all) = answers.lock() {
                        all[i] = Some(answer);
                    }
                }
            });
        }
    });
    let answers = answers.into_inner().map_err(|_| "a worker panicked")?;
    Ok(answers.into_iter().flatten().collect())
}
