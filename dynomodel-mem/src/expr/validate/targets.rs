//! The paths an update writes or a projection reads: no two may be the same path, one inside the other
//! (overlap) or the same position reached once as a map key and once as a list index (conflict).

use super::{path_string, Category, Checker};
use crate::expr::ast::Path;
use crate::expr::eval::Step;

impl Checker<'_, '_> {
    pub(super) fn target_path(&mut self, path: &Path) {
        if let Some(steps) = self.path(path) {
            self.target(steps);
        }
    }

    /// Records a target path (update action, projection) and checks it against the earlier ones.
    fn target(&mut self, steps: Vec<Step>) {
        for earlier in &self.paths {
            let common = earlier.len().min(steps.len());
            let mut diverged = false;
            for i in 0..common {
                let (a, b) = (&earlier[i], &steps[i]);
                if std::mem::discriminant(a) != std::mem::discriminant(b) {
                    let msg = format!("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: {}, path two: {}", path_string(earlier), path_string(&steps));
                    self.errors.entry(Category::PathConflict).or_insert(msg);
                    diverged = true;
                    break;
                }
                if a != b {
                    diverged = true;
                    break;
                }
            }
            if !diverged {
                let msg = format!("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: {}, path two: {}", path_string(earlier), path_string(&steps));
                self.errors.entry(Category::PathOverlap).or_insert(msg);
            }
        }
        self.paths.push(steps);
    }
}
