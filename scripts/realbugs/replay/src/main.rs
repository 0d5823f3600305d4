include!("dispatch.rs");
