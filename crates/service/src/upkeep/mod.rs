//! Housekeeping that runs beside the work: the retention sweeper, clearing
//! what a crash left behind, and the background build of the search index.

pub mod index_build;
pub mod leftovers;
pub mod retention;
pub mod search_index;
