//! The models' tables as infrastructure as code: a CloudFormation template
//! ([`Models::cloudformation`]), Terraform `aws_dynamodb_table` resources ([`Models::terraform`]) or
//! the DynamoDB API requests that create them ([`Models::json`]).
//!
//! [`Models`] names an application's models; the models sharing one table are merged exactly as
//! [`Collection::definition`] merges them ([`Definition::union`]), so
//! each table appears once with every index its models declare.
//!
//! ```
//! use dynomodel::Model;
//! use dynomodel::migrate::Models;
//!
//! #[derive(Model)]
//! #[dynomodel(table = "sessions", point_in_time_recovery)]
//! #[global_index(keys("by-device", hash = device))]
//! struct Session { #[hash_key] id: String, device: String, #[ttl] expires: u64 }
//!
//! let models = Models::new().with::<Session>();
//! let template: serde_json::Value = serde_json::from_str(&models.cloudformation()?).unwrap();
//! let table = &template["Resources"]["SessionsTable"];
//! assert_eq!(table["Type"], "AWS::DynamoDB::Table");
//! assert_eq!(table["Properties"]["TimeToLiveSpecification"]["AttributeName"], "expires");
//! assert!(models.terraform()?.contains("resource \"aws_dynamodb_table\" \"sessions\" {"));
//! # Ok::<(), dynomodel::Error>(())
//! ```
//!
//! The template is JSON: CloudFormation, SAM and CDK's `CfnInclude` read it as they read YAML, and
//! the one Rust YAML serializer that was well kept (`serde_yaml`) is deprecated and unmaintained.

mod api;
mod cloudformation;
mod names;
mod terraform;

use std::fmt;
use std::str::FromStr;

use crate::error::Result;
use crate::migrate::definition::Definition;
use crate::model::{Collection, Model};

/// The models of an application, for export and for planning them all at once
/// (`db.plan_all(&models.definitions()?)`, which is what `dynomodel::cli` runs).
///
/// ```
/// use dynomodel::migrate::Models;
/// # use dynomodel::Model;
/// # #[derive(Model)] #[dynomodel(table = "users")] struct User { #[hash_key] id: String }
/// # #[derive(Model)] #[dynomodel(table = "orders")] struct Order { #[hash_key] id: String }
///
/// let models = Models::new().with::<User>().with::<Order>();
/// let tables = models.definitions()?;
/// assert_eq!(tables.iter().map(|d| d.table_name()).collect::<Vec<_>>(), ["orders", "users"]);
/// # Ok::<(), dynomodel::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Models {
    members: Vec<(String, Definition)>,
}

impl Models {
    /// No models yet.
    pub fn new() -> Models {
        Models::default()
    }

    /// Adds `M` (named by its type, for messages).
    pub fn with<M: Model>(self) -> Models {
        let name = std::any::type_name::<M>();
        let name = name.rsplit("::").next().unwrap_or(name);
        self.with_definition(name, Definition::of::<M>())
    }

    /// Adds every member of the single-table collection `C`.
    pub fn with_collection<C: Collection>(mut self) -> Models {
        for (name, definition) in C::members() {
            self.members.push((name.to_owned(), definition));
        }
        self
    }

    /// Adds a definition built by hand, under `name`.
    pub fn with_definition(mut self, name: &str, definition: Definition) -> Models {
        self.members.push((name.to_owned(), definition));
        self
    }

    /// Whether no model was added.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// One definition per table, in table-name order, the models of a shared table merged
    /// ([`Definition::by_table`]).
    ///
    /// Errors: [`Error::SchemaConflict`](crate::Error::SchemaConflict) naming the two models of one
    /// table that declare it differently.
    pub fn definitions(&self) -> Result<Vec<Definition>> {
        Definition::by_table(
            self.members
                .iter()
                .map(|(name, definition)| (name.as_str(), definition)),
        )
    }

    /// A CloudFormation template (JSON) with one `AWS::DynamoDB::Table` per table: key schema,
    /// attribute definitions, global and local indexes with their projections and throughput,
    /// billing mode, throughput, stream, table class, deletion protection, tags, time to live and
    /// point-in-time recovery. Each table's logical id is its name in PascalCase plus `Table`
    /// (`user-events` → `UserEventsTable`), and it is retained when the stack deletes or replaces
    /// it (`DeletionPolicy` and `UpdateReplacePolicy` `Retain`), since it holds data.
    pub fn cloudformation(&self) -> Result<String> {
        Ok(cloudformation::template(&self.definitions()?))
    }

    /// Terraform `aws_dynamodb_table` resources (HCL, as `terraform fmt` lays it out), one per
    /// table, named after the table (`user-events` → `user-events`, a leading digit prefixed `t_`).
    pub fn terraform(&self) -> Result<String> {
        Ok(terraform::resources(&self.definitions()?))
    }

    /// The DynamoDB API requests that create the tables, as JSON: for each table its
    /// `CreateTable` input and, where the model has them, its `UpdateTimeToLive` and
    /// `UpdateContinuousBackups` inputs (each usable as `aws dynamodb <op> --cli-input-json`).
    pub fn json(&self) -> Result<String> {
        Ok(api::requests(&self.definitions()?))
    }

    /// The export in `format`.
    pub fn export(&self, format: Format) -> Result<String> {
        match format {
            Format::CloudFormation => self.cloudformation(),
            Format::Terraform => self.terraform(),
            Format::ApiJson => self.json(),
        }
    }
}

/// An export format of [`Models::export`]; parsed from `cloudformation`, `terraform` or `json`.
///
/// ```
/// use dynomodel::migrate::Format;
/// assert_eq!("terraform".parse::<Format>(), Ok(Format::Terraform));
/// assert!("yaml".parse::<Format>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// [`Models::cloudformation`].
    CloudFormation,
    /// [`Models::terraform`].
    Terraform,
    /// [`Models::json`] (`json` on a command line). Not `Json`: a second public item of that name
    /// would make the compiler spell `dynomodel::convert::Json` in full in every diagnostic that
    /// lists it.
    ApiJson,
}

impl Format {
    /// Its name on a command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::CloudFormation => "cloudformation",
            Format::Terraform => "terraform",
            Format::ApiJson => "json",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Format, String> {
        match text {
            "cloudformation" => Ok(Format::CloudFormation),
            "terraform" => Ok(Format::Terraform),
            "json" => Ok(Format::ApiJson),
            other => Err(format!(
                "unknown export format `{other}`; expected cloudformation, terraform or json"
            )),
        }
    }
}
