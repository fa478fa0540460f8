use dynomodel::Model;

// A compressed field's handle offers what DynamoDB can still evaluate on compressed bytes (`exists`,
// `not_exists`, `attribute_type`, `size`, and `set` in updates); comparisons, `begins_with` and
// `contains` do not compile.
#[derive(Model)]
struct Post {
    #[hash_key]
    id: String,
    #[dynomodel(compress)]
    body: String,
    #[dynomodel(compress(min_size = "1KB"))]
    summary: Option<String>,
}

fn main() {
    let _ = Post::body().exists().and(Post::body().size().gt(10));
    let _ = Post::body().eq("x");
    let _ = Post::body().lt("x");
    let _ = Post::summary().ne("x");
    let _ = Post::body().begins_with("x");
    let _ = Post::body().contains("x");
    let _ = Post::summary().between("a", "b");
}
