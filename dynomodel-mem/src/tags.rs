//! Tags: TagResource, UntagResource, ListTagsOfResource.

use dynomodel::{
    Error, ListTagsOfResourceInput, ListTagsOfResourceOutput, Result, TagResourceInput,
    TagResourceOutput, UntagResourceInput, UntagResourceOutput,
};

use crate::state::State;

// SCAFFOLD: the engine-ttl-tags helper replaces these.
impl State {
    /// `TagResource`.
    pub fn tag_resource(&mut self, _input: TagResourceInput) -> Result<TagResourceOutput> {
        Err(Error::validation("SCAFFOLD"))
    }

    /// `UntagResource`.
    pub fn untag_resource(&mut self, _input: &UntagResourceInput) -> Result<UntagResourceOutput> {
        Err(Error::validation("SCAFFOLD"))
    }

    /// `ListTagsOfResource`.
    pub fn list_tags_of_resource(
        &self,
        _input: &ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        Err(Error::validation("SCAFFOLD"))
    }
}
