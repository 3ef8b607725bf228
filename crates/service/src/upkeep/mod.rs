//! Housekeeping that runs beside the work: the retention sweeper, clearing
//! what a crash left behind, the background build of the search index, and
//! the database's merges and checkpoints after writes.

pub mod database;
pub mod index_build;
pub mod leftovers;
pub mod retention;
pub mod search_index;
