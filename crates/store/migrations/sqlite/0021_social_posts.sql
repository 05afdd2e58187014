-- Recent posts of organic social sources (`social_a`: a Facebook page and its Instagram account).
--
-- A sync stores the posts it read with their lifetime engagement (reactions, comments and shares
-- on Facebook; likes and comments on Instagram): one row per (product, source kind, post), so a
-- later read replaces the counts and the text (a post edited, or engaged with since) and a
-- re-read stores nothing twice. `published_at` is epoch milliseconds; `text` holds the first 280
-- characters of the message or caption. `GET /products/{slug}/social` reads a product's posts
-- published in its window, hence the index by (product, published_at).
CREATE TABLE social_posts (
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL,
    post_id       TEXT NOT NULL,
    -- `facebook`, `instagram`: the network the post is on.
    network       TEXT NOT NULL,
    published_at  BIGINT NOT NULL,
    permalink     TEXT,
    text          TEXT,
    media_type    TEXT,
    engagement    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    PRIMARY KEY (product_id, kind, post_id)
);
CREATE INDEX social_posts_by_published ON social_posts(product_id, published_at);
