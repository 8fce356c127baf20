import { useParams } from 'react-router';
import { ProductDetails, usePack } from '../../features/catalog';

export function Component() {
  const { slug = '' } = useParams();
  return <ProductDetails query={usePack(slug)} />;
}
