//! The games on disk: one SQLite file, written as each move is made (a
//! transaction a change), read back when a game is asked for again.
//!
//! The journal is a write-ahead log with `synchronous = NORMAL`: a
//! committed move survives the server being killed at any moment (only a
//! crash of the whole machine may lose the last moves). Tokens are stored as
//! they are: they are random capabilities for one seat of one game on this
//! server, never reused elsewhere, and whoever can read this file can as
//! well write it; the file and its folder are made private to the user.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};

/// The schema version this server writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i64 = 3;

/// The first schema (version 1); a new database is made with it and then
/// brought up to date by [`MIGRATIONS`], as an old one is.
const SCHEMA: &str = "
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    rules TEXT NOT NULL,
    move_cap INTEGER,
    start TEXT NOT NULL,
    south_kind TEXT NOT NULL,
    south_level TEXT,
    south_token TEXT,
    south_joined INTEGER NOT NULL,
    north_kind TEXT NOT NULL,
    north_level TEXT,
    north_token TEXT,
    north_joined INTEGER NOT NULL,
    -- set when the game ended other than on the board (resigned, draw agreed)
    end_winner TEXT,
    end_reason TEXT,
    draw_offer TEXT,
    -- the game is over, and who won (S, N or NULL), however it ended
    over INTEGER NOT NULL DEFAULT 0,
    winner TEXT,
    series_id TEXT,
    series_index INTEGER,
    south_player TEXT
);
CREATE INDEX games_series ON games (series_id, series_index);
CREATE TABLE moves (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE series (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL
);
";

/// The changes from each version to the next: `MIGRATIONS[i]` takes
/// version `i + 1` to `i + 2`.
const MIGRATIONS: [&str; 2] = [
    // 2: Arabic Mancala's settings (`rules` is then `mancala`); the games
    // of version 1 are Oware's, and keep NULL and 0.
    "ALTER TABLE games ADD COLUMN start_seeds INTEGER;
     ALTER TABLE games ADD COLUMN empty_capture INTEGER NOT NULL DEFAULT 0;",
    // 3: players' names, the rematch (offered by S or N, and its game),
    // and the clocks: the time control, each side's time left when its
    // clock last stopped, and when the running clock started (ms since
    // the epoch; NULL while no clock runs). Older games keep NULLs.
    "ALTER TABLE games ADD COLUMN south_name TEXT;
     ALTER TABLE games ADD COLUMN north_name TEXT;
     ALTER TABLE games ADD COLUMN rematch_offer TEXT;
     ALTER TABLE games ADD COLUMN rematch_id TEXT;
     ALTER TABLE games ADD COLUMN clock_base_ms INTEGER;
     ALTER TABLE games ADD COLUMN clock_inc_ms INTEGER;
     ALTER TABLE games ADD COLUMN south_ms INTEGER;
     ALTER TABLE games ADD COLUMN north_ms INTEGER;
     ALTER TABLE games ADD COLUMN clock_since INTEGER;",
];

const _: () = assert!(MIGRATIONS.len() as i64 + 1 == SCHEMA_VERSION);

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// `human`, `link` or `engine`.
    pub kind: String,
    /// The engine's level.
    pub level: Option<String>,
    /// The seat's token (people only).
    pub token: Option<String>,
    /// Whether the seat's player has come.
    pub joined: bool,
    /// The player's name, if given.
    pub name: Option<String>,
}

/// A game's clocks as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockRow {
    /// The time each side starts with, ms.
    pub base_ms: i64,
    /// The time added after each move, ms.
    pub inc_ms: i64,
    /// South's and North's time left when their clocks last stopped, ms.
    pub left_ms: [i64; 2],
    /// When the side to move's clock started (ms since the epoch), if it
    /// runs.
    pub since_ms: Option<i64>,
}

/// One game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game id.
    pub id: String,
    /// The rule set's name.
    pub rules: String,
    /// The cap on half-moves without a capture (Oware).
    pub move_cap: Option<u32>,
    /// Seeds a house at the start (Mancala; none for Oware).
    pub start_seeds: Option<u8>,
    /// The empty capture (Mancala).
    pub empty_capture: bool,
    /// The start position.
    pub start: String,
    /// South's and North's seats.
    pub seats: [SeatRow; 2],
    /// An ending off the board: winner (`S`, `N` or none) and reason.
    pub end: Option<(Option<String>, String)>,
    /// The side offering a draw.
    pub draw_offer: Option<String>,
    /// The moves, in order, one letter each.
    pub moves: Vec<String>,
    /// The series: its id, this game's index and who sits South (`A`/`B`).
    pub series: Option<(String, u32, String)>,
    /// When the game was made (seconds since the epoch; 0: now, on insert).
    pub created: i64,
    /// The side offering a rematch (`S`/`N`), and the rematch's id once made.
    pub rematch: (Option<String>, Option<String>),
    /// The clocks, when the game has a time control.
    pub clock: Option<ClockRow>,
}

/// One game of a series as stored: id, who sat South, whether it is over
/// and who won (`S`, `N` or none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesGameRow {
    /// The game id.
    pub id: String,
    /// `A` or `B`.
    pub south_player: String,
    /// Whether it is over.
    pub over: bool,
    /// `S`, `N`, or none.
    pub winner: Option<String>,
}

/// The database of games.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (or creates) `games.sqlite` in `dir`, creating the folder.
    pub fn open(dir: &Path) -> Result<Store> {
        if !dir.is_dir() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
            make_private(dir, 0o700);
        }
        let path = dir.join("games.sqlite");
        let conn = Connection::open(&path)
            .with_context(|| format!("cannot open the database {}", path.display()))?;
        make_private(&path, 0o600);
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&conn)
            .and_then(|()| check_layout(&conn))
            .with_context(|| format!("cannot set up the database {}", path.display()))?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on the connection on a blocking thread.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T> {
        let conn = Arc::clone(&self.conn);
        tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut conn)
        })
        .await
        .context("database task failed")?
        .context("database error")
    }

    /// Writes a new game (with the moves it starts with, and its series row
    /// when it opens a series), or returns `false` when the id is taken.
    pub async fn insert_game(&self, row: GameRow, series_format: Option<String>) -> Result<bool> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            let taken: Option<i64> = tx
                .query_row("SELECT 1 FROM games WHERE id = ?1", [&row.id], |r| r.get(0))
                .optional()?;
            if taken.is_some() {
                return Ok(false);
            }
            if let (Some(format), Some((series_id, _, _))) = (&series_format, &row.series) {
                tx.execute(
                    "INSERT INTO series (id, format) VALUES (?1, ?2)",
                    params![series_id, format],
                )?;
            }
            let [s, n] = &row.seats;
            let (series_id, index, south_player) = match &row.series {
                Some((id, i, p)) => (Some(id.clone()), Some(*i), Some(p.clone())),
                None => (None, None, None),
            };
            let clock = row.clock.as_ref();
            tx.execute(
                "INSERT INTO games (id, created, rules, move_cap, start,
                    south_kind, south_level, south_token, south_joined,
                    north_kind, north_level, north_token, north_joined,
                    draw_offer, series_id, series_index, south_player,
                    start_seeds, empty_capture, south_name, north_name,
                    clock_base_ms, clock_inc_ms, south_ms, north_ms, clock_since)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                    ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
                params![
                    row.id,
                    if row.created > 0 {
                        row.created
                    } else {
                        now_secs()
                    },
                    row.rules,
                    row.move_cap,
                    row.start,
                    s.kind,
                    s.level,
                    s.token,
                    s.joined,
                    n.kind,
                    n.level,
                    n.token,
                    n.joined,
                    row.draw_offer,
                    series_id,
                    index,
                    south_player,
                    row.start_seeds,
                    row.empty_capture,
                    s.name,
                    n.name,
                    clock.map(|c| c.base_ms),
                    clock.map(|c| c.inc_ms),
                    clock.map(|c| c.left_ms[0]),
                    clock.map(|c| c.left_ms[1]),
                    clock.and_then(|c| c.since_ms)
                ],
            )?;
            for (ply, mv) in row.moves.iter().enumerate() {
                tx.execute(
                    "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
                    params![row.id, ply as i64, mv],
                )?;
            }
            tx.commit()?;
            Ok(true)
        })
        .await
    }

    /// Records a move (ply counted from 0), clearing any draw offer, and
    /// whether the game is over after it, with the clocks after it.
    pub async fn add_move(
        &self,
        id: String,
        ply: usize,
        mv: String,
        over: Option<Option<String>>,
        clock: Option<ClockRow>,
    ) -> Result<()> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
                params![id, ply as i64, mv],
            )?;
            tx.execute(
                "UPDATE games SET draw_offer = NULL, over = ?2, winner = ?3 WHERE id = ?1",
                params![id, over.is_some(), over.flatten()],
            )?;
            set_clock(&tx, &id, clock.as_ref())?;
            tx.commit()
        })
        .await
    }

    /// Ends a game off the board (resigned, draw agreed, out of time), with
    /// its clocks stopped.
    pub async fn end_game(
        &self,
        id: String,
        winner: Option<String>,
        reason: String,
        clock: Option<ClockRow>,
    ) -> Result<()> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE games SET end_winner = ?2, end_reason = ?3, draw_offer = NULL,
                    over = 1, winner = ?2 WHERE id = ?1",
                params![id, winner, reason],
            )?;
            set_clock(&tx, &id, clock.as_ref())?;
            tx.commit()
        })
        .await
    }

    /// Sets the rematch offer and the rematch's id.
    pub async fn set_rematch(
        &self,
        id: String,
        offer: Option<String>,
        rematch: Option<String>,
    ) -> Result<()> {
        self.run(move |conn| {
            conn.execute(
                "UPDATE games SET rematch_offer = ?2, rematch_id = ?3 WHERE id = ?1",
                params![id, offer, rematch],
            )?;
            Ok(())
        })
        .await
    }

    /// Sets or clears the draw offer.
    pub async fn set_draw_offer(&self, id: String, offer: Option<String>) -> Result<()> {
        self.run(move |conn| {
            conn.execute(
                "UPDATE games SET draw_offer = ?2 WHERE id = ?1",
                params![id, offer],
            )?;
            Ok(())
        })
        .await
    }

    /// Marks a seat (0 South, 1 North) as joined.
    pub async fn set_joined(&self, id: String, seat: usize) -> Result<()> {
        self.run(move |conn| {
            let sql = if seat == 0 {
                "UPDATE games SET south_joined = 1 WHERE id = ?1"
            } else {
                "UPDATE games SET north_joined = 1 WHERE id = ?1"
            };
            conn.execute(sql, [id])?;
            Ok(())
        })
        .await
    }

    /// Reads a game, or `None` when there is none with this id.
    pub async fn load_game(&self, id: String) -> Result<Option<GameRow>> {
        self.run(move |conn| load_game(conn, &id)).await
    }

    /// The format of a series and its games in order.
    pub async fn load_series(&self, id: String) -> Result<Option<(String, Vec<SeriesGameRow>)>> {
        self.run(move |conn| {
            let format: Option<String> = conn
                .query_row("SELECT format FROM series WHERE id = ?1", [&id], |r| {
                    r.get(0)
                })
                .optional()?;
            let Some(format) = format else {
                return Ok(None);
            };
            let mut stmt = conn.prepare(
                "SELECT id, south_player, over, winner FROM games
                 WHERE series_id = ?1 ORDER BY series_index",
            )?;
            let games = stmt
                .query_map([&id], |r| {
                    Ok(SeriesGameRow {
                        id: r.get(0)?,
                        south_player: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                        over: r.get(2)?,
                        winner: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok(Some((format, games)))
        })
        .await
    }
}

/// Brings the database to [`SCHEMA_VERSION`] (a new one from nothing), a
/// transaction for all the steps; a database of a later version is
/// refused.
fn migrate(conn: &Connection) -> Result<()> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    if !(0..SCHEMA_VERSION).contains(&version) {
        anyhow::bail!(
            "it has schema version {version}; this server knows versions up to {SCHEMA_VERSION}"
        );
    }
    let tx = conn.unchecked_transaction()?;
    if version == 0 {
        tx.execute_batch(SCHEMA)?;
    }
    for step in &MIGRATIONS[version.max(1) as usize - 1..] {
        tx.execute_batch(step)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// The tables and columns of `conn`'s database, by `sqlite_schema`.
fn columns(conn: &Connection) -> Result<std::collections::BTreeSet<(String, String)>> {
    let mut tables = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
    let names: Vec<String> = tables
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = std::collections::BTreeSet::new();
    for table in names {
        let mut info = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
        for column in info.query_map([&table], |r| r.get::<_, String>(0))? {
            out.insert((table.clone(), column?));
        }
    }
    Ok(out)
}

/// Checks that a database of [`SCHEMA_VERSION`] has the tables and columns
/// that version makes (those of a new database built by [`migrate`]): a
/// file of the right version but another layout is refused at the start
/// rather than failing every request.
fn check_layout(conn: &Connection) -> Result<()> {
    let fresh = Connection::open_in_memory()?;
    migrate(&fresh)?;
    let have = columns(conn)?;
    if let Some((table, column)) = columns(&fresh)?.into_iter().find(|c| !have.contains(c)) {
        anyhow::bail!(
            "it has schema version {SCHEMA_VERSION} but no column {table}.{column}: not a database this server wrote"
        );
    }
    Ok(())
}

/// Writes the clocks' state (nothing for a game without clocks).
fn set_clock(conn: &Connection, id: &str, clock: Option<&ClockRow>) -> rusqlite::Result<()> {
    if let Some(c) = clock {
        conn.execute(
            "UPDATE games SET south_ms = ?2, north_ms = ?3, clock_since = ?4 WHERE id = ?1",
            params![id, c.left_ms[0], c.left_ms[1], c.since_ms],
        )?;
    }
    Ok(())
}

fn load_game(conn: &Connection, id: &str) -> rusqlite::Result<Option<GameRow>> {
    let row = conn
        .query_row(
            "SELECT rules, move_cap, start,
                south_kind, south_level, south_token, south_joined,
                north_kind, north_level, north_token, north_joined,
                end_winner, end_reason, draw_offer, series_id, series_index, south_player,
                start_seeds, empty_capture, south_name, north_name, created,
                rematch_offer, rematch_id,
                clock_base_ms, clock_inc_ms, south_ms, north_ms, clock_since
             FROM games WHERE id = ?1",
            [id],
            |r| {
                let seat = |base: usize, name: usize| -> rusqlite::Result<SeatRow> {
                    Ok(SeatRow {
                        kind: r.get(base)?,
                        level: r.get(base + 1)?,
                        token: r.get(base + 2)?,
                        joined: r.get(base + 3)?,
                        name: r.get(name)?,
                    })
                };
                let clock = match r.get::<_, Option<i64>>(24)? {
                    Some(base_ms) => Some(ClockRow {
                        base_ms,
                        inc_ms: r.get::<_, Option<i64>>(25)?.unwrap_or(0),
                        left_ms: [
                            r.get::<_, Option<i64>>(26)?.unwrap_or(base_ms),
                            r.get::<_, Option<i64>>(27)?.unwrap_or(base_ms),
                        ],
                        since_ms: r.get(28)?,
                    }),
                    None => None,
                };
                let end_reason: Option<String> = r.get(12)?;
                let series_id: Option<String> = r.get(14)?;
                Ok(GameRow {
                    id: id.to_string(),
                    rules: r.get(0)?,
                    move_cap: r.get(1)?,
                    start_seeds: r.get(17)?,
                    empty_capture: r.get(18)?,
                    start: r.get(2)?,
                    seats: [seat(3, 19)?, seat(7, 20)?],
                    created: r.get(21)?,
                    rematch: (r.get(22)?, r.get(23)?),
                    clock,
                    end: match end_reason {
                        Some(reason) => Some((r.get(11)?, reason)),
                        None => None,
                    },
                    draw_offer: r.get(13)?,
                    moves: Vec::new(),
                    series: match series_id {
                        Some(sid) => Some((
                            sid,
                            r.get::<_, Option<u32>>(15)?.unwrap_or(0),
                            r.get::<_, Option<String>>(16)?.unwrap_or_default(),
                        )),
                        None => None,
                    },
                })
            },
        )
        .optional()?;
    let Some(mut row) = row else {
        return Ok(None);
    };
    let mut stmt = conn.prepare("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    row.moves = stmt
        .query_map([id], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(Some(row))
}

#[cfg(unix)]
fn make_private(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
}

#[cfg(not(unix))]
fn make_private(_path: &Path, _mode: u32) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::referee::GameRules;

    fn seat(kind: &str, token: Option<&str>) -> SeatRow {
        SeatRow {
            kind: kind.into(),
            level: (kind == "engine").then(|| "easy".into()),
            token: token.map(String::from),
            joined: true,
            name: None,
        }
    }

    #[tokio::test]
    async fn a_version_1_database_is_migrated_and_its_games_load() {
        let dir = tempfile::tempdir().unwrap();
        {
            // A database as the first server wrote it, with one game.
            let conn = Connection::open(dir.path().join("games.sqlite")).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO games (id, created, rules, move_cap, start,
                    south_kind, south_token, south_joined, north_kind, north_level, north_joined)
                 VALUES ('g1', 0, 'awari', 100, '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S',
                    'human', 'tok', 1, 'engine', 'easy', 1)",
                [],
            )
            .unwrap();
            conn.execute("INSERT INTO moves VALUES ('g1', 0, 'F')", [])
                .unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        let version: i64 = store
            .run(|c| c.pragma_query_value(None, "user_version", |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let old = store.load_game("g1".into()).await.unwrap().unwrap();
        assert_eq!((old.rules.as_str(), old.move_cap), ("awari", Some(100)));
        assert_eq!((old.start_seeds, old.empty_capture), (None, false));
        assert_eq!(old.moves, ["F"]);
        assert_eq!(old.seats[0], seat("human", Some("tok")));
        // It is the Oware game it was, with its cap.
        let live = crate::serve::games::LiveGame::from_row(old, None).unwrap();
        let rules = crate::Rules::AWARI.with_no_capture_limit(Some(100));
        assert_eq!(live.game.rules(), GameRules::Oware(rules));
        assert_eq!(live.game.moves().len(), 1);
        // A Mancala game beside it keeps its settings.
        let new = GameRow {
            id: "g2".into(),
            rules: "mancala".into(),
            move_cap: None,
            start_seeds: Some(4),
            empty_capture: true,
            start: "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S".into(),
            seats: [seat("human", Some("t2")), seat("engine", None)],
            end: None,
            draw_offer: None,
            moves: vec!["C".into(), "F".into()],
            series: None,
            created: 1_700_000_000,
            rematch: (None, None),
            clock: None,
        };
        assert!(store.insert_game(new.clone(), None).await.unwrap());
        assert_eq!(store.load_game("g2".into()).await.unwrap(), Some(new));
        drop(store);
        // Opened again: nothing to do.
        let store = Store::open(dir.path()).unwrap();
        assert!(store.load_game("g1".into()).await.unwrap().is_some());
    }

    #[test]
    fn a_database_of_a_later_version_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let conn = Connection::open(dir.path().join("games.sqlite")).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        let err = Store::open(dir.path()).err().unwrap();
        assert!(
            format!("{err:#}").contains(&format!("schema version {}", SCHEMA_VERSION + 1)),
            "{err:#}"
        );
    }

    #[test]
    fn a_database_of_this_version_without_its_tables_is_refused() {
        // Each case: a file claiming the current version, with a layout of
        // its own; the column the message names is one it lacks.
        let cases = [
            ("CREATE TABLE other (x INTEGER);", "games."),
            (
                "CREATE TABLE games (id TEXT PRIMARY KEY); CREATE TABLE moves (game_id TEXT);",
                "games.",
            ),
        ];
        for (layout, missing) in cases {
            let dir = tempfile::tempdir().unwrap();
            let conn = Connection::open(dir.path().join("games.sqlite")).unwrap();
            conn.execute_batch(layout).unwrap();
            conn.pragma_update(None, "user_version", SCHEMA_VERSION)
                .unwrap();
            drop(conn);
            let err = format!("{:#}", Store::open(dir.path()).err().unwrap());
            assert!(err.contains("not a database this server wrote"), "{err}");
            assert!(err.contains(&format!("no column {missing}")), "{err}");
        }
        // A database this server made passes the same check.
        let dir = tempfile::tempdir().unwrap();
        drop(Store::open(dir.path()).unwrap());
        assert!(Store::open(dir.path()).is_ok());
    }
}
