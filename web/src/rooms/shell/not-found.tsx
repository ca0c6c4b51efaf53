import { Link } from '../../router/link';
import { pathTo } from '../../router/paths';
import { Page } from '../../ui/page';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. <Link href={pathTo('home')}>Go to the start page</Link>.
      </p>
    </Page>
  );
}
