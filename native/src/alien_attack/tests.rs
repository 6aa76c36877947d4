//! Rules easy to state, against the engine.
