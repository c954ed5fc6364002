//! Laws live in tests/.
