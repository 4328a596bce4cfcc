//! Project automation behind `cargo xtask`, as a library so that its tests run the same code on
//! the real tree and on copies of it.

pub mod gen_shaders;
pub mod templates;
pub mod web;
pub mod workspace;
