use dynomodel::Model;

// A generated field handle and a user method with the same name collide loudly, never silently.
#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    text: String,
}

impl Tweet {
    fn text(&self) -> &str {
        &self.text
    }
}

fn main() {}
