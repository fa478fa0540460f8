use dynomodel::{Document, Model};

#[derive(Model)]
#[dynomodel(tags(
    team = "payments",
    "" = "empty key",
    "aws:owner" = "me",
    "cost#center" = "1",
    note = "semi;colon",
    team = "again",
    "kéy:été ok" = "unicode letters are letters",
    long = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
))]
struct Tagged {
    #[hash_key]
    id: String,
}

#[derive(Model)]
#[dynomodel(tags(1 = "number"))]
struct BadKey {
    #[hash_key]
    id: String,
}

#[derive(Model)]
#[dynomodel(tags(
    t1 = "", t2 = "", t3 = "", t4 = "", t5 = "", t6 = "", t7 = "", t8 = "", t9 = "", t10 = "",
    t11 = "", t12 = "", t13 = "", t14 = "", t15 = "", t16 = "", t17 = "", t18 = "", t19 = "", t20 = "",
    t21 = "", t22 = "", t23 = "", t24 = "", t25 = "", t26 = "", t27 = "", t28 = "", t29 = "", t30 = "",
    t31 = "", t32 = "", t33 = "", t34 = "", t35 = "", t36 = "", t37 = "", t38 = "", t39 = "", t40 = "",
    t41 = "", t42 = "", t43 = "", t44 = "", t45 = "", t46 = "", t47 = "", t48 = "", t49 = "", t50 = "",
    t51 = ""
))]
struct TooMany {
    #[hash_key]
    id: String,
}

#[derive(Document)]
#[dynomodel(tags(team = "x"), stream = "keys_only", deletion_protection)]
struct Nested {
    city: String,
}

fn main() {}
