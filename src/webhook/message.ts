// Chat messages for slack and discord hooks: one line saying what happened, with links, in the style of Forgejo's
// converters (services/webhook/slack.go, discord.go, general.go), plus the commit list of a push.
import type { HookEventType } from '../domain/hook-event.ts';
import { shortRefName } from '../domain/hook-event.ts';
import type {
  CreatePayload,
  DeletePayload,
  IssueCommentPayload,
  IssuePayload,
  PackagePayload,
  PullRequestPayload,
  PushPayload,
  ReleasePayload,
  RepositoryPayload,
  StatusPayload,
} from './payload.ts';

export interface MessageFormat {
  link(url: string, text: string): string;
  name(name: string): string;
  text(text: string): string;
}

export interface EventMessage {
  /** The line that says what happened. */
  text: string;
  /** Details: a push's commits, an issue's or comment's body. */
  details: string;
  /** A link to the subject. */
  url: string;
  /** Forgejo's colours: green for new things, red for closed or deleted, grey otherwise. */
  color: number;
}

const GREEN = 0x1db954;
const RED = 0xff3232;
const GREY = 0x4a4a4a;

const refUrl = (repoUrl: string, ref: string) =>
  ref.startsWith('refs/tags/')
    ? `${repoUrl}/src/tag/${encodeURIComponent(shortRefName(ref))}`
    : `${repoUrl}/src/branch/${encodeURIComponent(shortRefName(ref))}`;

export function eventMessage(type: HookEventType, payload: unknown, f: MessageFormat): EventMessage {
  switch (type) {
    case 'push': {
      const p = payload as PushPayload;
      const count = p.total_commits === 1 ? '1 new commit' : `${p.total_commits} new commits`;
      const commits = p.compare_url ? f.link(p.compare_url, count) : count;
      const details = p.commits
        .map(
          (c) => `${f.link(c.url, c.id.slice(0, 7))}: ${f.text(c.message.split('\n')[0])} - ${f.name(c.author.name)}`,
        )
        .join('\n');
      return {
        text: `[${p.repository.full_name}:${f.link(refUrl(p.repository.html_url!, p.ref), shortRefName(p.ref))}] ${commits} pushed by ${f.name(p.pusher.login!)}`,
        details,
        url: p.repository.html_url!,
        color: GREY,
      };
    }
    case 'create': {
      const p = payload as CreatePayload;
      const ref = f.link(refUrl(p.repository.html_url!, p.ref), shortRefName(p.ref));
      return {
        text: `[${p.repository.full_name}:${ref}] ${p.ref_type} created by ${f.name(p.sender.login!)}`,
        details: '',
        url: p.repository.html_url!,
        color: GREEN,
      };
    }
    case 'delete': {
      const p = payload as DeletePayload;
      const repo = f.link(p.repository.html_url!, p.repository.full_name!);
      return {
        text: `[${repo}:${f.text(shortRefName(p.ref))}] ${p.ref_type} deleted by ${f.name(p.sender.login!)}`,
        details: '',
        url: p.repository.html_url!,
        color: RED,
      };
    }
    case 'repository': {
      const p = payload as RepositoryPayload;
      const repo = f.link(p.repository.html_url!, p.repository.full_name!);
      return {
        text: `[${repo}] Repository ${p.action} by ${f.name(p.sender.login!)}`,
        details: '',
        url: p.repository.html_url!,
        color: p.action === 'created' ? GREEN : RED,
      };
    }
    case 'issues':
    case 'issue_label':
    case 'issue_assign': {
      const p = payload as IssuePayload;
      const title = f.link(p.issue.html_url!, `#${p.number} ${p.issue.title}`);
      return {
        text: `[${p.repository.full_name}] Issue ${p.action}: ${title} by ${f.name(p.sender.login!)}`,
        details: p.action === 'opened' ? f.text(p.issue.body ?? '') : '',
        url: p.issue.html_url!,
        color: p.action === 'closed' ? RED : p.action === 'opened' ? GREEN : GREY,
      };
    }
    case 'issue_comment':
    case 'pull_request_comment': {
      const p = payload as IssueCommentPayload;
      const kind = p.is_pull ? 'pull request' : 'issue';
      const title = f.link(p.comment.html_url!, `#${p.issue.number} ${p.issue.title}`);
      return {
        text: `[${p.repository.full_name}] New comment on ${kind} ${title} by ${f.name(p.sender.login!)}`,
        details: f.text(p.comment.body ?? ''),
        url: p.comment.html_url!,
        color: GREY,
      };
    }
    case 'pull_request':
    case 'pull_request_label':
    case 'pull_request_assign': {
      const p = payload as PullRequestPayload;
      const url = String(p.pull_request.html_url ?? p.repository.html_url);
      const title = f.link(url, `#${p.number} ${String(p.pull_request.title ?? '')}`);
      return {
        text: `[${p.repository.full_name}] Pull request ${p.action}: ${title} by ${f.name(p.sender.login!)}`,
        details: p.action === 'opened' ? f.text(String(p.pull_request.body ?? '')) : '',
        url,
        color: p.action === 'closed' ? RED : p.action === 'opened' ? GREEN : GREY,
      };
    }
    case 'pull_request_review_approved':
    case 'pull_request_review_rejected':
    case 'pull_request_review_comment': {
      const p = payload as PullRequestPayload;
      const url = String(p.pull_request.html_url ?? p.repository.html_url);
      const title = f.link(url, `#${p.number} ${String(p.pull_request.title ?? '')}`);
      const verdict = { pull_request_review_approved: 'approved', pull_request_review_rejected: 'changes requested' }[
        type as string
      ];
      return {
        text: `[${p.repository.full_name}] Pull request review${verdict ? ` ${verdict}` : ''}: ${title} by ${f.name(p.sender.login!)}`,
        details: f.text(p.review?.content ?? ''),
        url,
        color: type === 'pull_request_review_rejected' ? RED : type === 'pull_request_review_approved' ? GREEN : GREY,
      };
    }
    case 'package': {
      const p = payload as PackagePayload;
      const url = p.package.html_url ?? '';
      const name = f.link(url, `${p.package.name}:${p.package.version}`);
      return {
        text: `Package ${p.action}: ${name} by ${f.name(p.sender.login!)}`,
        details: '',
        url,
        color: p.action === 'created' ? GREEN : RED,
      };
    }
    case 'release': {
      const p = payload as ReleasePayload;
      const url = p.release.html_url ?? '';
      const name = f.link(url, p.release.tag_name ?? '');
      return {
        text: `[${p.repository.full_name}] Release ${p.action}: ${name} by ${f.name(p.sender.login!)}`,
        details: '',
        url,
        color: p.action === 'deleted' ? RED : p.action === 'published' ? GREEN : GREY,
      };
    }
    case 'status': {
      const p = payload as StatusPayload;
      const url = p.target_url || p.repository.html_url!;
      return {
        text: `[${p.repository.full_name}] Commit ${p.sha.slice(0, 7)} ${f.text(p.context)}: ${p.state}`,
        details: f.text(p.description),
        url,
        color: p.state === 'success' ? GREEN : p.state === 'pending' ? GREY : RED,
      };
    }
  }
}
