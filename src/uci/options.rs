//! `setoption`: the engine's options (hash, threads, tables, evaluation
//! file, rules, the book) and what changing each of them does.

use std::io::Write;
use std::path::PathBuf;

use super::Session;
use super::play::{GameRules, Play};
use crate::mancala::{MancalaRules, START_SEEDS};
use crate::search::EvalChoice;
use crate::{RuleSet, Rules};

impl<W: Write + Send + 'static> Session<W> {
    pub(super) fn setoption(&mut self, words: &[&str]) {
        // setoption name <Name> value <v>
        let name_end = words
            .iter()
            .position(|w| *w == "value")
            .unwrap_or(words.len());
        let name = words
            .get(1..name_end)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        let value = words
            .get(name_end + 1..)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        self.halt();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=65536).contains(&mib) => self.set_hash(mib),
                _ => self.say(&format!("info string bad Hash value '{value}'")),
            },
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=256).contains(&t) => self.set_threads(t),
                _ => self.say(&format!("info string bad Threads value '{value}'")),
            },
            "ownbook" => {
                self.options.own_book = value.eq_ignore_ascii_case("true");
                if self.options.own_book {
                    self.load_book();
                } else {
                    self.options.book = None;
                    self.pending
                        .push("info string book: none (OwnBook is off)".to_string());
                }
                self.flush_pending();
            }
            "bookfile" => {
                self.options.book_file = Some(PathBuf::from(value));
                if self.options.own_book {
                    self.load_book();
                    self.flush_pending();
                }
            }
            "useleaves" => {
                self.options.use_leaves = value.eq_ignore_ascii_case("true");
                self.load_tables();
                self.flush_pending();
            }
            "tablepath" => {
                self.options.table_path = PathBuf::from(value);
                self.options.table_asked = true;
                self.load_tables();
                // The book next to the tables follows them.
                if self.options.own_book && self.options.book_file.is_none() {
                    self.load_book();
                }
                self.flush_pending();
            }
            "rules" => match value.parse::<RuleSet>() {
                Ok(RuleSet::Oware(variant)) => self.set_rules(GameRules::Oware(Rules::of(variant))),
                Ok(RuleSet::Mancala) => self.set_rules(GameRules::Mancala(self.mancala_rules())),
                Err(e) => self.say(&format!("info string bad Rules value '{value}': {e}")),
            },
            "startseeds" => match value.parse::<u8>() {
                Ok(seeds) if START_SEEDS.contains(&seeds) => {
                    self.options.start_seeds = seeds;
                    self.mancala_changed();
                }
                _ => self.say(&format!(
                    "info string bad StartSeeds value '{value}': mancala starts with 3, 4, 5 or 7 seeds a house"
                )),
            },
            "emptycapture" => {
                self.options.empty_capture = value.eq_ignore_ascii_case("true");
                self.mancala_changed();
            }
            "evalfile" => self.set_eval_file(&value),
            _ => self.say(&format!("info string unknown option '{name}'")),
        }
    }

    /// Mancala's rules as the options `StartSeeds` and `EmptyCapture` say.
    fn mancala_rules(&self) -> MancalaRules {
        MancalaRules::new(self.options.start_seeds, self.options.empty_capture)
    }

    /// After `StartSeeds` or `EmptyCapture`: a session playing Mancala
    /// under other rules starts again under the new ones.
    fn mancala_changed(&mut self) {
        let rules = self.mancala_rules();
        if let GameRules::Mancala(old) = self.play.rules()
            && old != rules
        {
            self.set_rules(GameRules::Mancala(rules));
        }
    }

    /// `setoption name EvalFile`: the evaluation from a file (weights or a
    /// network, as `oware tune` writes them), or the built-in network for `<built-in>` or
    /// nothing. A file that cannot be read is said, and the evaluation stays.
    fn set_eval_file(&mut self, value: &str) {
        let value = value.trim();
        if value.is_empty() || value == "<built-in>" {
            self.set_eval(EvalChoice::DEFAULT, None);
            self.say("info string eval: the built-in network");
            return;
        }
        let path = PathBuf::from(value);
        match EvalChoice::load(&path) {
            Ok(params) => {
                let what = if params.network_in_use().is_some() {
                    "a network"
                } else {
                    "weights"
                };
                self.say(&format!("info string eval: {what} from {value}"));
                self.set_eval(params, Some(path));
            }
            Err(e) => self.say(&format!("info string {e}; the evaluation stays")),
        }
    }

    /// Uses this evaluation for Oware, read from `file` (`None`: built in).
    pub fn set_eval(&mut self, params: EvalChoice, file: Option<PathBuf>) {
        self.halt();
        self.play.set_params(params);
        self.options.eval = params;
        self.options.eval_file = file;
    }

    /// `setoption name Rules` (or `StartSeeds` while playing Mancala): a
    /// new engine for those rules, with the same options, at the start
    /// position; the tables (and the book) are opened again for them.
    fn set_rules(&mut self, rules: GameRules) {
        self.play = Play::new(rules, self.options.hash, self.options.threads, &self.stop);
        self.play.set_params(self.options.eval);
        self.load_tables();
        if self.options.own_book {
            self.load_book();
        }
        self.flush_pending();
    }

    /// `setoption name Hash`: the table is made (and its pages touched)
    /// now, before `readyok`, so that no clock pays for it. A size above
    /// the memory available is refused; less memory than asked is said.
    fn set_hash(&mut self, mib: usize) {
        if let Err(e) = crate::search::tt::check_size(mib) {
            self.say(&format!(
                "info string {e}; Hash stays {}",
                self.options.hash
            ));
            return;
        }
        let got = self.play.set_hash(mib);
        self.options.hash = got;
        if got < mib {
            self.say(&format!(
                "info string Hash is {got} MiB, not {mib}: memory is short"
            ));
        }
    }

    /// `setoption name Threads`: the threads are started once to see that
    /// the system allows them; if not, the engine goes on with those that
    /// started, and says so.
    fn set_threads(&mut self, threads: usize) {
        if let Err(e) = self.play.set_threads(threads) {
            let started = match e {
                crate::search::SearchError::Threads { started, .. } => started.max(1),
                _ => 1,
            };
            self.say(&format!("info string {e}; using {started}"));
            self.options.threads = started;
            return;
        }
        self.options.threads = threads;
    }

    /// Where the book is read from: `BookFile`, else `book.owb` in the
    /// table folder.
    fn book_path(&self) -> PathBuf {
        self.options
            .book_file
            .clone()
            .unwrap_or_else(|| self.options.table_path.join(crate::book::BOOK_FILE))
    }

    /// At the start: `OwnBook` is on when the book is found in the table
    /// folder (the engine ships with its book on); what is found is said
    /// before `uciok`.
    pub(super) fn open_default_book(&mut self) {
        let path = self.book_path();
        if !path.is_file() {
            self.pending.push(format!(
                "info string book: none ({} not found)",
                path.display()
            ));
            return;
        }
        self.options.own_book = true;
        if matches!(self.play.rules(), GameRules::Oware(_)) {
            self.load_book();
        }
    }

    /// Reads the book of `BookFile` for `OwnBook`; a book that cannot be
    /// read is said and not used. What is said waits in `pending`.
    fn load_book(&mut self) {
        let path = self.book_path();
        let GameRules::Oware(rules) = self.play.rules() else {
            self.pending
                .push("info string book not used: the opening book is Oware's".to_string());
            self.options.book = None;
            return;
        };
        match crate::book::file::load(&path, rules.variant) {
            Ok(book) => {
                self.pending.push(format!(
                    "info string book: {} positions from {}",
                    book.nodes.len(),
                    path.display()
                ));
                self.options.book = Some(book);
            }
            Err(e) => {
                self.pending.push(format!("info string book not used: {e}"));
                self.options.book = None;
            }
        }
    }

    /// The book's move for the current position, if `OwnBook` has one: a
    /// move within 0.2 seeds of the book's best, at random.
    pub(super) fn book_move(&self) -> Option<crate::book::BookMove> {
        let book = self.options.book.as_ref()?;
        let game = self.play.oware_game()?;
        let random = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::from(d.subsec_nanos()));
        book.choose(game.position(), 20, random)
    }
}
