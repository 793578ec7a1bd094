//! The search techniques that can be switched off.

/// Search techniques that can be switched off, to measure what each one
/// is worth (`oware match`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Search late quiet moves shallower first (by depth and order).
    pub reductions: bool,
    /// Plies of captures searched beyond the nominal depth (0: none).
    pub capture_plies: i32,
    /// With several threads: a move whose position another thread is
    /// searching is put off until the node's other moves are done.
    pub defer: bool,
    /// At nodes four plies or more from the leaves whose children are in
    /// the endgame tables, try the moves in order of the seeds the tables
    /// guarantee after them.
    pub table_order: bool,
}

impl Features {
    /// What the engine uses: reductions won 57.6 % against the engine
    /// without them at equal nodes; a four-ply capture search scored 48.6 %
    /// (no gain), so it is off (`oware match`, README).
    pub const DEFAULT: Features = Features {
        reductions: true,
        capture_plies: 0,
        defer: true,
        table_order: true,
    };
}

impl Default for Features {
    fn default() -> Features {
        Features::DEFAULT
    }
}
