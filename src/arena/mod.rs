//! Matches between any two engines: the built-in engine and external
//! engines speaking the UCI dialect of RULES.md §6, fair openings, clocks and
//! adjudication, the statistics (Elo, pentanomial, SPRT) and the match formats
//! Oware is played in (series).

pub mod series;
