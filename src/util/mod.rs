//! Small shared pieces with no policy of their own, used by several feature modules: the Wilson
//! interval of a sampled rate, the SplitMix64 mixer behind every derived seed, and the words a
//! person reads for a duration or an amount of memory. A leaf: it imports nothing from the crate.

pub mod splitmix;
pub mod wilson;
pub mod words;
