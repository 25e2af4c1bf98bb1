//! The errors of the stages, rendered.

use pyo3::prelude::*;
use rpy3_driver::{DriverError, Translation};

/// The text of `e` for stderr.
pub fn render_driver_error(_py: Python<'_>, e: &DriverError, _t: &Translation) -> String {
    format!("rpy3: {e}")
}
