//! Domino-pyramid geometry shared by both Pyramido games (see RULES.md, "Geometry").
//!
//! - Stage 1 floats on a 9×9 block [`canvas`] until its blocks force a 5×4 or 4×5 frame.
//! - Stages 2–4 sit on fixed, half-offset block grids inside the [`frame`].
//! - Scoring looks at the [`topview`]: a 10×10 quadrant grid where each block overwrites the
//!   four quadrants it covers. Areas are 4-connected same-colour quadrant regions.
#![forbid(unsafe_code)]
pub mod canvas;
pub mod frame;
pub mod grid;
mod joins;
pub mod placement;
pub mod pyramid;
mod quadboard;
mod rebuild;
pub mod select;
pub mod topview;

pub use canvas::{CANVAS_SIZE, CANVAS_START, Canvas, FrameRect};
pub use frame::{STAGES, StageGrid};
pub use grid::Grid;
pub use placement::{Block, Dir, Placement, PlacementError, Quadrants};
pub use pyramid::{PlacedBlock, Pyramid};
pub use topview::{Area, TopView};
