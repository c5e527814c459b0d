//! Divide-and-conquer construction of knight's tours (Parberry 1997; Lin & Wei 2005).
pub mod search;
pub mod bases;
