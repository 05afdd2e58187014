// The window's most engaged posts, each with its network, when it went out, its text and a
// link to it on the network.

import { count, when } from '../../format';
import type { SocialPostView } from './types';
import { networkName } from './networks';

export function PostsList({ posts }: { posts: SocialPostView[] }) {
  return (
    <ol class="social-posts">
      {posts.map((post) => (
        <li data-post={post.id} data-network={post.network} data-engagement={post.engagement}>
          <div>
            <strong>{networkName(post.network)}</strong>{' '}
            <small class="muted">{when(post.published_at)}</small>
          </div>
          <p>{post.text ?? <span class="muted">(no text)</span>}</p>
          <small>
            {count(post.engagement)} engagements
            {post.permalink && (
              <>
                {' · '}
                <a href={post.permalink} target="_blank" rel="noopener noreferrer">
                  View post
                </a>
              </>
            )}
          </small>
        </li>
      ))}
    </ol>
  );
}
